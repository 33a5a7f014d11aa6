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
    'https://192.0.1.1/',
    'https://192.88.98.255/',
    'https://198.17.255.255/',
    'https://198.20.0.1/',
    'https://198.51.99.255/',
    'https://203.0.114.1/',
    'https://[2001:200::1]/',
    'https://[2003::1]/',
    'https://[2a00:1450:4001::1]/',
    'https://[3fff:1000::1]/',
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
    ['https://224.0.0.1/', '224.0.0.0/4'],
    ['https://239.255.255.250/', '224.0.0.0/4'],
    ['https://240.0.0.1/', '240.0.0.0/4'],
    ['https://255.255.255.254/', '240.0.0.0/4'],
    ['https://255.255.255.255/', 'broadcast address (255.255.255.255/32)'],
    // The rest of the IANA IPv4 special-purpose registry.
    ['https://192.0.0.1/', '192.0.0.0/24'],
    ['https://192.0.0.170/', '192.0.0.0/24'],
    ['https://192.0.0.255/', '192.0.0.0/24'],
    ['https://192.0.2.1/', '192.0.2.0/24'],
    ['https://192.31.196.1/', '192.31.196.0/24'],
    ['https://192.52.193.1/', '192.52.193.0/24'],
    ['https://192.88.99.1/', '192.88.99.0/24'],
    ['https://192.175.48.1/', '192.175.48.0/24'],
    ['https://198.18.0.1/', '198.18.0.0/15'],
    ['https://198.19.255.255/', '198.18.0.0/15'],
    ['https://198.51.100.1/', '198.51.100.0/24'],
    ['https://203.0.113.1/', '203.0.113.0/24'],
    ['https://nas.home.arpa/', '.home.arpa'],
    // Other spellings of IPv4 that the URL parser normalises.
    ['https://2130706433/', '127.0.0.0/8'],
    ['https://0x7f.0.0.1/', '127.0.0.0/8'],
    ['https://0177.0.0.1/', '127.0.0.0/8'],
    ['https://0/', '0.0.0.0/8'],
    ['https://[::1]/', '::1'],
    ['https://[0:0:0:0:0:0:0:1]/', '::1'],
    ['https://[::]/', 'unspecified address (::/128)'],
    ['https://[fc00::1]/', 'fc00::/7'],
    ['https://[fdff:ffff::1]/', 'fc00::/7'],
    ['https://[fe80::1]/', 'fe80::/10'],
    ['https://[febf::1]/', 'fe80::/10'],
    ['https://[ff02::1]/', 'ff00::/8'],
    ['https://[fec0::1]/', 'site-local address (deprecated) (fec0::/10)'],
    ['https://[feff::1]/', 'fec0::/10'],
    // Every form that embeds an IPv4 address is refused as a whole range; a special embedded address is named too.
    ['https://[::ffff:127.0.0.1]/', 'IPv4-mapped address (::ffff:0:0/96) for a loopback address (127.0.0.0/8)'],
    ['https://[::ffff:7f00:1]/', '::ffff:0:0/96'],
    ['https://[0:0:0:0:0:ffff:7f00:1]/', '::ffff:0:0/96'],
    ['https://[::FFFF:7F00:0001]/', '::ffff:0:0/96'],
    ['https://[::ffff:10.0.0.1]/', '10.0.0.0/8'],
    ['https://[::ffff:a9fe:a9fe]/', '169.254.0.0/16'],
    ['https://[::ffff:192.168.0.1]/', '192.168.0.0/16'],
    ['https://[::ffff:8.8.8.8]/', '::ffff:0:0/96'],
    ['https://[::ffff:0:127.0.0.1]/', 'IPv4-translated address (::ffff:0:0:0/96)'],
    ['https://[::ffff:0:7f00:1]/', '::ffff:0:0:0/96'],
    ['https://[::ffff:0:8.8.8.8]/', '::ffff:0:0:0/96'],
    ['https://[::127.0.0.1]/', 'IPv4-compatible address (deprecated) (::/96)'],
    ['https://[::8.8.8.8]/', '::/96'],
    ['https://[64:ff9b::7f00:1]/', 'NAT64 address (64:ff9b::/96) for a loopback address (127.0.0.0/8)'],
    ['https://[64:ff9b::127.0.0.1]/', '64:ff9b::/96'],
    ['https://[64:ff9b::8.8.8.8]/', '64:ff9b::/96'],
    ['https://[64:ff9b:1::a00:1]/', '64:ff9b:1::/48'],
    ['https://[64:ff9b:1:ffff::1]/', '64:ff9b:1::/48'],
    ['https://[2002:7f00:1::]/', '6to4 address (2002::/16)'],
    ['https://[2002:a9fe:a9fe::1]/', '2002::/16'],
    ['https://[2002:808:808::1]/', '2002::/16'],
    ['https://[2001::1]/', 'Teredo address (2001::/32)'],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', '2001::/32'],
    // The rest of the IANA IPv6 special-purpose registry, and whatever is not global unicast.
    ['https://[2001:1::1]/', '2001::/23'],
    ['https://[2001:1ff::1]/', '2001::/23'],
    ['https://[2001:2::1]/', '2001:2::/48'],
    ['https://[2001:db8::1]/', '2001:db8::/32'],
    ['https://[3fff::1]/', '3fff::/20'],
    ['https://[2620:4f:8000::1]/', '2620:4f:8000::/48'],
    ['https://[5f00::1]/', '5f00::/16'],
    ['https://[100::1]/', '100::/64'],
    ['https://[100:0:0:1::1]/', '100:0:0:1::/64'],
    ['https://[1::1]/', '2000::/3'],
    ['https://[4000::1]/', '2000::/3'],
    ['https://[e000::1]/', '2000::/3'],
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
