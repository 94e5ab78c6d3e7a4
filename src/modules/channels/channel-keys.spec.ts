import { joinChannelKeys, keyStatuses, maskKey, parseChannelKeyInfo, remapKeyStates, serialiseChannelKeyInfo, withKeyStatus, withoutAutoDisabledKeys } from './channel-keys';

describe('channel key states', () => {
  it('reads a missing or broken channel_info as every key enabled, drawn at random, and stores the defaults as null', () => {
    expect(keyStatuses(parseChannelKeyInfo(null), 2)).toEqual([1, 1]);
    expect(keyStatuses(parseChannelKeyInfo('not json'), 1)).toEqual([1]);
    expect(serialiseChannelKeyInfo(withKeyStatus(withKeyStatus({}, 1, 3, 'x', 5), 1, 1, '', 0))).toBeNull();
    expect(serialiseChannelKeyInfo({ multi_key_mode: 'polling' })).toBe('{"multi_key_mode":"polling"}');
  });

  it('carries each remaining key’s status to its new index when the key field changes', () => {
    const info = withKeyStatus(withKeyStatus({ multi_key_mode: 'polling' }, 0, 2, 'admin', 1), 2, 3, '401', 2);
    const remapped = remapKeyStates(info, ['a', 'b', 'c'], ['c', 'd', 'a']);
    expect(keyStatuses(remapped, 3)).toEqual([3, 1, 2]);
    expect(remapped.multi_key_disabled_reason).toEqual({ '0': '401', '2': 'admin' });
    expect(remapped.multi_key_mode).toBe('polling');
  });

  it('enables the automatically disabled keys and keeps the admin’s', () => {
    const info = withKeyStatus(withKeyStatus({}, 0, 3, '401', 1), 1, 2, 'admin', 1);
    expect(keyStatuses(withoutAutoDisabledKeys(info), 2)).toEqual([1, 2]);
  });

  it('masks plain keys at both ends and JSON keys by their account', () => {
    expect(maskKey('sk-abcdefghijklmnopqrstuvwxyz')).toBe('sk-a…wxyz');
    expect(maskKey('short-key-12')).toBe('sh…12');
    expect(maskKey('tiny')).toBe('****');
    expect(maskKey(JSON.stringify({ client_email: 'gateway@project-1.iam.gserviceaccount.com', private_key: 'secret' }))).toBe('{gate….com}');
    expect(maskKey('{"private_key":"secret"}')).toBe('{…}');
  });

  it('writes several JSON keys back as an array, others one per line', () => {
    expect(joinChannelKeys(['{"a":1}', '{"b":2}'], true)).toBe('[{"a":1},{"b":2}]');
    expect(joinChannelKeys(['sk-a', 'sk-b'], false)).toBe('sk-a\nsk-b');
  });
});
