import { DataSource } from 'typeorm';
import { translate } from '../src/common/i18n/catalogue';
import { LOG_TYPE_SYSTEM } from '../src/modules/logs/entities/log.entity';
import type { LogMessageKey, LogOther } from '../src/modules/logs/log.wire';
import { LogsService } from '../src/modules/logs/logs.service';
import { createAdmin, registerUser, type Session } from './support/accounts';
import { openaiClient, startRelayTestbed, type RelayTestbed } from './support/mock-upstream-seed';

interface ListedLog {
  id: number;
  type: number;
  content: string;
  other: string;
}

/** The English text the console renders for a row (its en `logs:messages` match the catalogue's en: log-text.spec.ts). */
function inEnglish(other: LogOther): string {
  return translate(`log.${other.message_key as LogMessageKey}`, 'en', other.message_params ?? {});
}

/**
 * Issue 31 part 2: a log row says what happened as a message key and parameters, so each reader sees it in their
 * own language, whatever the language of the console that caused the row; `content` stays the Chinese text it
 * always was, and rows from before keep only that.
 */
describe('usage log: rows in the reader’s language', () => {
  let bed: RelayTestbed;
  let admin: Session;
  let alice: Session;

  /** alice's own rows and the admin's view of them, read with the given console language. */
  async function rowsReadIn(language: 'zh-CN' | 'en'): Promise<{ own: ListedLog[]; admin: ListedLog[] }> {
    const own = await alice.get('/api/log/self/?page_size=100').set('Accept-Language', language);
    const all = await admin.get(`/api/log/?page_size=100&username=alice`).set('Accept-Language', language);
    expect(own.body.success && all.body.success).toBe(true);
    return { own: own.body.data.items, admin: all.body.data.items };
  }

  const otherOf = (rows: ListedLog[], key: LogMessageKey) => rows.map((row) => ({ row, other: (row.other ? JSON.parse(row.other) : {}) as LogOther })).find(({ other }) => other.message_key === key);

  beforeAll(async () => {
    bed = await startRelayTestbed();
    admin = await createAdmin(bed.app, bed.root, 'lang-admin');
    alice = await registerUser(bed.app, 'alice');
    await bed.seed.setOption('ModelRatio', JSON.stringify({ 'lang-model': 2 }));
    await bed.seed.setOption('CompletionRatio', JSON.stringify({ 'lang-model': 3 }));
    await bed.seed.createChannel({ name: 'primary', base_url: bed.upstream.url, models: 'lang-model', key: 'sk-upstream-secret-1' });

    // Written from a console in Chinese: the admin sets alice's quota.
    const zhChange = await bed.root.put('/api/user/', { id: alice.id, quota: 10_000_000 }).set('Accept-Language', 'zh-CN');
    expect(zhChange.body.success).toBe(true);
    // Written from a console in English: alice redeems a code.
    const [code] = (await admin.post('/api/redemption/', { name: 'lang', quota: 5000, count: 1 })).body.data as string[];
    const redeemed = await alice.post('/api/user/topup', { key: code }).set('Accept-Language', 'en');
    expect(redeemed.body.success).toBe(true);
    // And a call through the relay, which has no console language at all.
    const token = await bed.seed.createToken(alice.id, { remain_quota: 5_000_000 });
    await openaiClient(bed.app, token.apiKey).chat.completions.create({ model: 'lang-model', messages: [{ role: 'user', content: 'Say hello' }] });
    await bed.seed.flush();
    // A row from before message keys: its text and nothing else.
    await bed.app.app.get(LogsService).record({ type: LOG_TYPE_SYSTEM, user_id: alice.id, username: 'alice', content: '旧的系统记录' });
  });
  afterAll(() => bed.stop());

  it('stores each row once, in Chinese, with its message key and parameters, whatever language wrote it', async () => {
    const { own } = await rowsReadIn('zh-CN');
    const change = otherOf(own, 'admin_quota_changed');
    expect(change?.row.content).toMatch(/^管理员将用户额度从 \d+ 修改为 10000000$/);
    expect(change?.other.message_params).toEqual({ from: expect.any(Number), to: 10_000_000 });
    const redeem = otherOf(own, 'redeemed');
    expect(redeem?.row.content).toMatch(/^通过兑换码充值 5000 额度，兑换码 ID \d+$/);
    expect(redeem?.other.message_params).toEqual({ quota: 5000, id: expect.any(Number) });
    const consume = otherOf(own, 'consume_per_token');
    expect(consume?.row.content).toBe('模型倍率 2，补全倍率 3，分组倍率 1');
    expect(consume?.other).toMatchObject({ message_params: { modelRatio: 2, completionRatio: 3, groupRatio: 1 }, model_ratio: 2 });
    // alice's own view still hides which channels were tried; the message is hers to read.
    expect(consume?.other.admin_info).toBeUndefined();
  });

  it('reads the row written in zh in English, and the row written in en in Chinese', async () => {
    const { own } = await rowsReadIn('en');
    expect(inEnglish(otherOf(own, 'admin_quota_changed')!.other)).toMatch(/^An administrator changed the user quota from \d+ to 10000000$/);
    expect(inEnglish(otherOf(own, 'consume_per_token')!.other)).toBe('Model ratio 2, completion ratio 3, group ratio 1');
    const redeem = otherOf((await rowsReadIn('zh-CN')).own, 'redeemed')!;
    expect(translate('log.redeemed', 'zh', redeem.other.message_params)).toBe(redeem.row.content);
    expect(inEnglish(redeem.other)).toMatch(/^Redeemed a code for 5000 quota, code id \d+$/);
  });

  it('answers the same rows whatever the reader’s language, to the user and to admins', async () => {
    const zh = await rowsReadIn('zh-CN');
    const en = await rowsReadIn('en');
    expect(en.own).toEqual(zh.own);
    expect(en.admin).toEqual(zh.admin);
    const adminConsume = otherOf(en.admin, 'consume_per_token');
    expect(adminConsume?.other).toMatchObject({ message_key: 'consume_per_token', admin_info: { use_channel: [expect.any(Number)] } });
  });

  it('keeps an old row’s stored text, with no message key', async () => {
    const { own } = await rowsReadIn('en');
    const old = own.find((row) => row.content === '旧的系统记录');
    expect(old).toMatchObject({ type: LOG_TYPE_SYSTEM, other: '' });
    const stored = await bed.app.app.get(DataSource).query("SELECT COUNT(*) AS n FROM logs WHERE content = '旧的系统记录'");
    expect(Number(stored[0].n)).toBe(1);
  });
});
