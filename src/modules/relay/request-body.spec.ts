import { withMembers } from './request-body';

describe('withMembers', () => {
  const added = (text: string) => withMembers(Buffer.from(text), '"stream_options":{"include_usage":true}').toString('utf8');

  it('appends before the closing brace, keeping the bytes before it and the whitespace after it', () => {
    expect(added('{"model":"m","messages":[{"content":"}"}]}')).toBe('{"model":"m","messages":[{"content":"}"}],"stream_options":{"include_usage":true}}');
    expect(added('{ "model": "m",\n  "stream": true }\r\n')).toBe('{ "model": "m",\n  "stream": true ,"stream_options":{"include_usage":true}}\r\n');
    expect(JSON.parse(added('{"a":"é\\u007d"}\n\t '))).toEqual({ a: 'é}', stream_options: { include_usage: true } });
  });

  it('adds no comma to an empty object', () => {
    expect(added(' { \n } ')).toBe(' { \n "stream_options":{"include_usage":true}} ');
  });
});
