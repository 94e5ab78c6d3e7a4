import { channelKeys } from './channel-types';

describe('channelKeys', () => {
  it('reads one key per line for most types', () => {
    expect(channelKeys(1, ' sk-a \n\nsk-b\r\n')).toEqual(['sk-a', 'sk-b']);
  });

  it('keeps a pretty-printed JSON key file whole, and reads a JSON array as several keys', () => {
    const file = JSON.stringify({ type: 'service_account', project_id: 'p', private_key: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----\n' }, null, 2);
    expect(channelKeys(41, `\n${file}\n`)).toEqual([file]);
    expect(channelKeys(41, JSON.stringify([{ project_id: 'a' }, { project_id: 'b' }], null, 2))).toEqual(['{"project_id":"a"}', '{"project_id":"b"}']);
    expect(channelKeys(41, '{"project_id":"a"}\n\n{"project_id":"b"}\n')).toEqual(['{"project_id":"a"}', '{"project_id":"b"}']);
    expect(channelKeys(41, '{"project_id":"a"\nbroken')).toEqual(['{"project_id":"a"\nbroken']);
    expect(channelKeys(41, '  ')).toEqual([]);
  });
});
