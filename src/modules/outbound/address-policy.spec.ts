import { classifyAddress, OutboundRefusedError, resolveAllowedAddresses, type Resolver } from './address-policy';

/** A DNS stand-in: no query leaves the process. */
function fakeDns(records: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const resolver = async (host: string) => {
    asked.push(host);
    const addresses = records[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolver, { asked });
}

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

async function refusal(url: string, policy = strict, dns = fakeDns({})): Promise<string | undefined> {
  try {
    await resolveAllowedAddresses(new URL(url), policy, dns);
    return undefined;
  } catch (error) {
    if (error instanceof OutboundRefusedError) return error.reason;
    throw error;
  }
}

describe('outbound address policy', () => {
  it('classifies addresses, including IPv6 forms that carry an IPv4 address', () => {
    expect(classifyAddress('8.8.8.8')).toBe('public');
    expect(classifyAddress('2606:4700::1111')).toBe('public');
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '100.64.0.1', '::1', 'fd12::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::a00:1', '::127.0.0.1', '::7f00:1', 'fec0::1']) {
      expect([address, classifyAddress(address)]).toEqual([address, 'private']);
    }
    for (const address of ['169.254.169.254', '0.0.0.0', '0.1.2.3', '224.0.0.1', '255.255.255.255', 'fe80::1', 'ff02::1', '::', 'fd00:ec2::254', '::ffff:169.254.169.254', '2002:a9fe:a9fe::1', '::a9fe:a9fe', '2001::5ef5:79fd', '64:ff9b:1::a9fe:a9fe', '100::1', 'not-an-ip']) {
      expect([address, classifyAddress(address)]).toEqual([address, 'forbidden']);
    }
  });

  it('always refuses metadata, link-local, "this network" and multicast, even when private networks are allowed', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://metadata.google.internal/', 'http://0.0.0.0:8080', 'http://[fe80::1]/', 'http://224.0.0.1/', 'http://[::ffff:169.254.169.254]/']) {
      expect([url, await refusal(url, lenient)]).toEqual([url, expect.stringMatching(/^(forbidden_address|metadata_host)$/)]);
    }
  });

  it('sees through numeric-IP spellings of loopback', async () => {
    for (const url of ['http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://127.1/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://localhost./']) {
      const dns = fakeDns({ localhost: ['127.0.0.1'] });
      expect([url, await refusal(url, strict, dns)]).toEqual([url, 'private_address']);
    }
  });

  it('refuses private ranges unless root allowed them', async () => {
    for (const url of ['http://10.0.0.5/', 'http://100.64.1.1/', 'http://192.168.0.10:11434/', 'http://172.16.0.1/']) {
      expect([url, await refusal(url)]).toEqual([url, 'private_address']);
      expect([url, await refusal(url, lenient)]).toEqual([url, undefined]);
    }
  });

  it('judges a host name by every address it resolves to', async () => {
    const dns = fakeDns({ 'api.example.com': ['93.184.216.34'], 'rebind.example.com': ['93.184.216.34', '127.0.0.1'], 'meta.example.com': ['169.254.169.254'] });
    expect(await resolveAllowedAddresses(new URL('https://api.example.com/v1'), strict, dns)).toEqual([{ address: '93.184.216.34', family: 4 }]);
    expect(await refusal('https://rebind.example.com/', strict, dns)).toBe('private_address');
    expect(await refusal('https://meta.example.com/', lenient, dns)).toBe('forbidden_address');
    expect(await refusal('https://nowhere.example.com/', strict, dns)).toBe('unresolvable');
  });

  it('refuses other schemes, credentials and ports of non-HTTP services before any DNS query', async () => {
    const dns = fakeDns({ 'api.example.com': ['93.184.216.34'] });
    expect(await refusal('ftp://api.example.com/', strict, dns)).toBe('scheme');
    expect(await refusal('file:///etc/passwd', strict, dns)).toBe('scheme');
    expect(await refusal('https://user:pass@api.example.com/', strict, dns)).toBe('credentials');
    for (const port of [22, 25, 3306, 6379, 11211]) expect(await refusal(`http://api.example.com:${port}/`, lenient, dns)).toBe('port');
    expect(dns.asked).toEqual([]);
    expect(await refusal('http://api.example.com:8080/', strict, dns)).toBeUndefined();
  });
});
