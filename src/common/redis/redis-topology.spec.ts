import { parseRedisConnString, redisConnStringPasswords } from './redis-topology';

describe('REDIS_CONN_STRING forms', () => {
  it('passes redis:// and rediss:// through to ioredis', () => {
    expect(parseRedisConnString('redis://:pw@127.0.0.1:6379/2')).toEqual({ kind: 'single', url: 'redis://:pw@127.0.0.1:6379/2' });
    expect(parseRedisConnString('rediss://cache.example:6380')).toEqual({ kind: 'single', url: 'rediss://cache.example:6380' });
  });

  it('reads a Sentinel set: hosts, master name, database, passwords and TLS', () => {
    expect(parseRedisConnString('redis-sentinel://:s%40cret@10.0.0.1:26379,[::1]:26380,sentinel-c/mymaster/3?sentinel_password=sp&tls=true')).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: '10.0.0.1', port: 26379 },
        { host: '::1', port: 26380 },
        { host: 'sentinel-c', port: 26379 },
      ],
      masterName: 'mymaster',
      db: 3,
      username: undefined,
      password: 's@cret',
      sentinelPassword: 'sp',
      tls: true,
    });
  });

  it('reads a Cluster: its seed nodes', () => {
    expect(parseRedisConnString('redis-cluster://127.0.0.1:7000,127.0.0.1:7001')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: '127.0.0.1', port: 7000 },
        { host: '127.0.0.1', port: 7001 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
  });

  it('names the expected forms when the string fits none', () => {
    expect(() => parseRedisConnString('memcached://x')).toThrow(/redis-sentinel:\/\//);
    expect(() => parseRedisConnString('redis-sentinel://127.0.0.1:26379')).toThrow(/names its master/);
    expect(() => parseRedisConnString('redis-cluster://127.0.0.1:notaport')).toThrow(/not host:port/);
  });

  it('hands every password to the log scrubber', () => {
    expect(redisConnStringPasswords('redis-sentinel://:master-pw@h:26379/m?sentinel_password=sentinel-pw')).toEqual(['master-pw', 'sentinel-pw']);
    expect(redisConnStringPasswords('redis://:plain-pw@h:6379')).toEqual(['plain-pw']);
  });
});
