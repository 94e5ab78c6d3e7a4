import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '../../common/i18n/catalogue';
import { logsMessages } from '../../common/i18n/messages/logs.messages';
import { logContent, logText, logTextColumns } from './log-text';
import { LOG_MESSAGE_KEYS } from './log.wire';

/** The console's `logs:messages` of one language. */
function consoleMessages(language: 'zh' | 'en'): Record<string, string> {
  const file = path.resolve(__dirname, '../../../web/src/i18n', language, 'logs.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { messages: Record<string, string> }).messages;
}

/** A template's parameter names, sorted: `{name}` on the server, `{{name}}` in the console. */
const parameters = (template: string) => [...template.matchAll(/\{\{?(\w+)\}?\}/g)].map((match) => match[1]).sort();

describe('log texts', () => {
  const keys = [...LOG_MESSAGE_KEYS].sort();

  it('has every message key in the server catalogue and in both console languages, and no other', () => {
    expect(Object.keys(logsMessages).map((code) => code.replace(/^log\./, '')).sort()).toEqual(keys);
    expect(Object.keys(consoleMessages('zh')).sort()).toEqual(keys);
    expect(Object.keys(consoleMessages('en')).sort()).toEqual(keys);
  });

  it('gives each message the same parameters on both sides, in both languages', () => {
    const zh = consoleMessages('zh');
    const en = consoleMessages('en');
    for (const key of LOG_MESSAGE_KEYS) {
      const server = MESSAGES[`log.${key}`];
      const expected = parameters(server.zh);
      expect({ key, parameters: parameters(server.en) }).toEqual({ key, parameters: expected });
      expect({ key, parameters: parameters(zh[key]) }).toEqual({ key, parameters: expected });
      expect({ key, parameters: parameters(en[key]) }).toEqual({ key, parameters: expected });
    }
  });

  it('stores the text in Chinese as content and the key with its parameters in other', () => {
    const text = logText('redeemed', { quota: 500, id: 3 });
    expect(logContent(text)).toBe('通过兑换码充值 500 额度，兑换码 ID 3');
    const columns = logTextColumns(text, { reason: 'redeem' });
    expect(columns.content).toBe('通过兑换码充值 500 额度，兑换码 ID 3');
    expect(JSON.parse(columns.other)).toEqual({ reason: 'redeem', message_key: 'redeemed', message_params: { quota: 500, id: 3 } });
  });
});
