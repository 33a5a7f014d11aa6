import { describe, expect, it } from 'vitest';
import { checkWebhookUrl } from '../../src/webhooks/url-policy';

const strict = { allowPrivate: false };
const relaxed = { allowPrivate: true };

describe('checkWebhookUrl in production (allowPrivate false)', () => {
  it.each([
    'https://example.com/webhooks',
    'https://hooks.example.co.uk:8443/a/b?c=d',
    'https://8.8.8.8/hook',
    'https://100.63.255.255/',
    'https://100.128.0.1/',
    'https://172.15.255.255/',
    'https://172.32.0.1/',
    'https://169.253.1.1/',
    'https://223.255.255.255/',
    'https://[2606:4700:4700::1111]/',
    'https://[::ffff:8.8.8.8]/',
    'https://[fec0::1]/',
    'https://localhost.example.com/',
    'https://internal.example.com/',
  ])('accepts %s', (url) => {
    expect(checkWebhookUrl(url, strict)).toBeNull();
  });

  it.each([
    ['http://example.com/hook', 'must use https'],
    ['ftp://example.com/', 'must use https'],
    ['not a url', 'absolute URL'],
    ['/relative/path', 'absolute URL'],
    ['https://user:pass@example.com/', 'credentials'],
    ['https://user@example.com/', 'credentials'],
    ['https://example.com/hook#frag', 'fragment'],
    ['https://example.com/hook#', 'fragment'],
    [`https://example.com/${'a'.repeat(2048)}`, 'at most 2048'],
    ['https://localhost/', 'localhost'],
    ['https://LOCALHOST./', 'localhost'],
    ['https://api.localhost/', 'localhost'],
    ['https://printer.local/', '.local'],
    ['https://metadata.google.internal/', '.internal'],
    ['https://0.0.0.0/', '0.0.0.0/8'],
    ['https://0.1.2.3/', '0.0.0.0/8'],
    ['https://10.0.0.1/', '10.0.0.0/8'],
    ['https://10.255.255.255/', '10.0.0.0/8'],
    ['https://100.64.0.1/', '100.64.0.0/10'],
    ['https://100.127.255.255/', '100.64.0.0/10'],
    ['https://127.0.0.1:8787/', '127.0.0.0/8'],
    ['https://127.255.0.1/', '127.0.0.0/8'],
    ['https://169.254.169.254/latest/meta-data', '169.254.0.0/16'],
    ['https://172.16.0.1/', '172.16.0.0/12'],
    ['https://172.31.255.255/', '172.16.0.0/12'],
    ['https://192.168.1.10/', '192.168.0.0/16'],
    ['https://224.0.0.1/', '224.0.0.0 and above'],
    ['https://239.255.255.250/', '224.0.0.0 and above'],
    ['https://240.0.0.1/', '224.0.0.0 and above'],
    ['https://255.255.255.255/', '224.0.0.0 and above'],
    // Other spellings of IPv4 that the URL parser normalises.
    ['https://2130706433/', '127.0.0.0/8'],
    ['https://0x7f.0.0.1/', '127.0.0.0/8'],
    ['https://0177.0.0.1/', '127.0.0.0/8'],
    ['https://0/', '0.0.0.0/8'],
    ['https://[::1]/', '::1'],
    ['https://[0:0:0:0:0:0:0:1]/', '::1'],
    ['https://[::]/', '(::)'],
    ['https://[fc00::1]/', 'fc00::/7'],
    ['https://[fdff:ffff::1]/', 'fc00::/7'],
    ['https://[fe80::1]/', 'fe80::/10'],
    ['https://[febf::1]/', 'fe80::/10'],
    ['https://[ff02::1]/', 'ff00::/8'],
    ['https://[::ffff:127.0.0.1]/', '127.0.0.0/8'],
    ['https://[::ffff:10.0.0.1]/', '10.0.0.0/8'],
    ['https://[::ffff:a9fe:a9fe]/', '169.254.0.0/16'],
    ['https://[::ffff:192.168.0.1]/', '192.168.0.0/16'],
  ])('refuses %s, naming why', (url, why) => {
    const issue = checkWebhookUrl(url, strict);
    expect(issue).not.toBeNull();
    expect(issue).toContain(why);
  });
});

describe('checkWebhookUrl with WEBHOOK_ALLOW_PRIVATE_URLS (allowPrivate true)', () => {
  it.each(['http://127.0.0.1:9999/hook', 'http://localhost:3000/', 'https://10.0.0.1/', 'http://[::1]:8080/', 'https://printer.local/', 'http://example.com/'])(
    'accepts %s',
    (url) => {
      expect(checkWebhookUrl(url, relaxed)).toBeNull();
    },
  );

  it.each([
    ['ftp://127.0.0.1/', 'must use http or https'],
    ['http://user:pass@127.0.0.1/', 'credentials'],
    ['http://127.0.0.1/#x', 'fragment'],
    [`http://127.0.0.1/${'a'.repeat(2048)}`, 'at most 2048'],
    ['nonsense', 'absolute URL'],
  ])('still refuses %s', (url, why) => {
    expect(checkWebhookUrl(url, relaxed)).toContain(why);
  });
});
