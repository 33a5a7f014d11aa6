-- Password-reset emails written before reset tokens were derived at send time hold the live token in
-- their stored copy: take it out of the subject, the texts and the data (src/notifications/redaction.ts).
UPDATE `notifications`
   SET `subject` = replace(`subject`, json_extract(`data`, '$.token'), '[redacted]'),
       `body` = replace(`body`, json_extract(`data`, '$.token'), '[redacted]'),
       `body_html` = replace(`body_html`, json_extract(`data`, '$.token'), '[redacted]'),
       `data` = json_set(`data`, '$.token', '[redacted]', '$.resetUrl', replace(json_extract(`data`, '$.resetUrl'), json_extract(`data`, '$.token'), '[redacted]'))
 WHERE `template` = 'password_reset' AND json_extract(`data`, '$.token') IS NOT NULL AND json_extract(`data`, '$.token') <> '[redacted]';
