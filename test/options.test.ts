import { DataSource } from 'typeorm';
import { OptionEntity } from '../src/modules/options/entities/option.entity';
import { OPTION_DEFINITIONS, OptionDefinition } from '../src/modules/options/option-definitions';
import { normaliseOptionValue, OptionsService } from '../src/modules/options/options.service';
import { createAdmin, Session, setupRoot } from './support/accounts';
import { startTestApp, TestApp } from './support/test-app';

describe('options', () => {
  let app: TestApp;
  let root: Session;
  let admin: Session;
  let rows: () => Promise<OptionEntity[]>;

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    admin = await createAdmin(app, root, 'admin1');
    rows = () => app.app.get(DataSource).getRepository(OptionEntity).find({ order: { key: 'ASC' } });
  });
  afterAll(() => app.stop());

  const put = (session: Session, key: string, value: unknown) => session.put('/api/option/', { key, value }).set('Accept-Language', 'en');
  const valueOf = async (key: string) => ((await root.get('/api/option/')).body.data as { key: string; value: string }[]).find((o) => o.key === key)?.value;

  it('lists every option with the spec defaults, secrets never sent back', async () => {
    const list = (await admin.get('/api/option/')).body.data as { key: string; value: string; is_set?: boolean }[];
    expect(list.map((o) => o.key).sort()).toEqual(Object.keys(OPTION_DEFINITIONS).sort());
    const byKey = Object.fromEntries(list.map((o) => [o.key, o]));
    expect(byKey.QuotaPerUnit.value).toBe('500000');
    expect(byKey.USDExchangeRate.value).toBe('7.3');
    expect(byKey.Price.value).toBe('7.3');
    expect(byKey.MinTopUp.value).toBe('1');
    expect(byKey.DataExportInterval.value).toBe('5');
    expect(byKey.DataExportDefaultTime.value).toBe('hour');
    expect(byKey.RetryTimes.value).toBe('0');
    expect(byKey.ModelRequestRateLimitSuccessCount.value).toBe('1000');
    expect(byKey['claude.thinking_adapter_budget_tokens_percentage'].value).toBe('0.8');
    expect(JSON.parse(byKey['gemini.version_settings'].value)).toEqual({ default: 'v1beta' });

    expect((await put(root, 'SMTPToken', 'super-secret-token')).body.success).toBe(true);
    const after = (await root.get('/api/option/')).body.data as { key: string; value: string; is_set?: boolean }[];
    expect(after.find((o) => o.key === 'SMTPToken')).toEqual({ key: 'SMTPToken', value: '', is_set: true });
    expect(JSON.stringify(after)).not.toContain('super-secret-token');
    expect(after.find((o) => o.key === 'EpayKey')).toEqual({ key: 'EpayKey', value: '', is_set: false });
  });

  it('validates each value by type and leaves the database untouched on failure', async () => {
    const before = JSON.stringify(await rows());
    const cases: [string, unknown, string][] = [
      ['DisplayInCurrencyEnabled', 'yes', 'DisplayInCurrencyEnabled must be true or false'],
      ['RetryTimes', '-1', 'RetryTimes must be at least 0'],
      ['RetryTimes', '1.5', 'RetryTimes must be an integer'],
      ['RetryTimes', 'abc', 'RetryTimes must be an integer'],
      ['DataExportInterval', '0', 'DataExportInterval must be at least 1'],
      ['DataExportDefaultTime', 'month', 'DataExportDefaultTime must be one of hour, day, week'],
      ['ModelRatio', '{"gpt-4o": 2.5,', 'ModelRatio is not a valid JSON string'],
      ['ModelRatio', '{"gpt-4o": "cheap"}', 'ModelRatio must be a JSON object whose values are numbers from 0 to 1000000'],
      ['ModelRatio', '[1,2]', 'ModelRatio must be a JSON object whose values are numbers from 0 to 1000000'],
      ['GroupRatio', '{"default": -1}', 'GroupRatio must be a JSON object whose values are numbers from 0 to 1000000'],
      ['PayMethods', '[{"name": "x"}]', 'PayMethods must be a JSON array of entries with string name, type and optional color'],
      ['AutoGroups', '{"default": 1}', 'AutoGroups must be a JSON array of strings'],
      ['UserUsableGroups', '{"vip": 2}', 'UserUsableGroups must be a JSON object whose values are strings'],
      ['GroupRatio', '{"default": 1e300}', 'GroupRatio must be a JSON object whose values are numbers from 0 to 1000000'],
      ['CompletionRatio', '{"gpt-4o": 1000001}', 'CompletionRatio must be a JSON object whose values are numbers from 0 to 1000000'],
      ['GroupGroupRatio', '{"vip": {"default": 1e7}}', 'GroupGroupRatio must be a JSON object mapping each group to an object of numbers from 0 to 1000000'],
      ['claude.default_max_tokens', '{"default": 1e300}', 'claude.default_max_tokens must be a JSON object whose values are integers from 0 to 100000000'],
      ['GroupGroupRatio', '{"vip": 2}', 'GroupGroupRatio must be a JSON object mapping each group to an object of numbers from 0 to 1000000'],
      ['Chats', '[["x"]]', 'Chats must be a JSON array of objects mapping a name to a link'],
      ['claude.model_headers_settings', '{"m": {"h": "v"}}', 'claude.model_headers_settings must be a JSON object: model → { header: [value, …] }'],
      ['claude.default_max_tokens', '{"default": 1.5}', 'claude.default_max_tokens must be a JSON object whose values are integers from 0 to 100000000'],
      ['ModelRequestRateLimitGroup', '{"vip": [1]}', 'ModelRequestRateLimitGroup must be a JSON object: group → [request count, success count], integers from 0 to 100000000'],
      ['QuotaForNewUser', '1e20', 'QuotaForNewUser must be at most 1000000000000000'],
      ['PreConsumedQuota', 1e20, 'PreConsumedQuota must be at most 1000000000000000'],
      ['QuotaPerUnit', '1e308', 'QuotaPerUnit must be at most 1000000000'],
      ['QuotaPerUnit', 'Infinity', 'QuotaPerUnit must be a number'],
      ['QuotaPerUnit', '0x10', 'QuotaPerUnit must be a number'],
      ['USDExchangeRate', '', 'USDExchangeRate must be a number'],
      ['SMTPPort', 70000, 'SMTPPort must be at most 65535'],
      ['ModelRequestRateLimitSuccessCount', 0, 'ModelRequestRateLimitSuccessCount must be at least 1'],
      ['claude.thinking_adapter_budget_tokens_percentage', '1.5', 'claude.thinking_adapter_budget_tokens_percentage must be at most 1'],
      ['ServerAddress', 'ftp://example.com', 'ServerAddress must start with http:// or https://'],
      ['NoSuchKey', 'x', 'Unknown option: NoSuchKey'],
      ['Notice', { nested: true }, 'Notice must be a string, number or boolean'],
      ['SMTPServer', 'smtp.example.com\nsmtp2.example.com', 'SMTPServer must be a single line'],
      ['EmailDomainWhitelist', 'a.com,\nb.com', 'EmailDomainWhitelist must be a single line'],
      ['Footer', 'x'.repeat(1_000_001), 'Footer is too long: at most 1000000 characters'],
      ['SensitiveWords', 'word\n'.repeat(200_001), 'SensitiveWords is too long: at most 1000000 characters'],
    ];
    // Every kind of setting has a refused value above.
    const kinds = new Set(cases.filter(([key]) => key in OPTION_DEFINITIONS).map(([key]) => (OPTION_DEFINITIONS as Record<string, OptionDefinition>)[key].kind));
    expect([...kinds].sort()).toEqual(['bool', 'enum', 'int', 'json', 'lines', 'list', 'number', 'string', 'text', 'url']);
    for (const [key, value, message] of cases) {
      const response = await put(root, key, value);
      expect({ key, value, answer: response.body }).toEqual({ key, value, answer: { success: false, message, data: null } });
    }
    const missing = await root.put('/api/option/', { value: 'x' });
    expect(missing.body.success).toBe(false);
    expect(JSON.stringify(await rows())).toBe(before);
  });

  it('normalises URLs and numbers, and is read back at once', async () => {
    expect((await put(root, 'ServerAddress', 'https://gw.example.com///')).body.success).toBe(true);
    expect(await valueOf('ServerAddress')).toBe('https://gw.example.com');
    expect((await put(root, 'RetryTimes', 3)).body.success).toBe(true);
    expect(await valueOf('RetryTimes')).toBe('3');
    expect((await put(admin, 'DisplayInCurrencyEnabled', false)).body.success).toBe(true);
    expect((await app.http.get('/api/status')).body.data.display_in_currency).toBe(false);
    expect((await put(admin, 'SystemName', 'My Gateway')).body.success).toBe(true);
    expect((await app.http.get('/api/status')).body.data.system_name).toBe('My Gateway');
    expect((await put(admin, 'Notice', '# Hello')).body.success).toBe(true);
    expect((await app.http.get('/api/notice')).body.data).toBe('# Hello');
  });

  it('declares bounds for every number, and no published secret', () => {
    for (const [key, definition] of Object.entries(OPTION_DEFINITIONS) as [string, OptionDefinition][]) {
      if (definition.kind === 'int' || definition.kind === 'number') {
        expect({ key, bounded: Number.isFinite(definition.min) && Number.isFinite(definition.max) }).toEqual({ key, bounded: true });
      }
      expect({ key, publishedSecret: Boolean(definition.secret && definition.status) }).toEqual({ key, publishedSecret: false });
      expect({ key, readers: definition.readBy.length > 0 }).toEqual({ key, readers: true });
      expect({ key, defaultValid: normaliseOptionValue(key, definition, definition.default) }).toEqual({ key, defaultValid: definition.default });
    }
  });

  it('gives readers typed values that change at once', async () => {
    const options = app.app.get(OptionsService);
    expect(options.get('QuotaPerUnit')).toBe(500000);
    expect(options.get('DisplayTokenStatEnabled')).toBe(true);
    expect((await put(root, 'AutomaticDisableKeywords', ' first \n\n second')).body.success).toBe(true);
    expect(options.get('AutomaticDisableKeywords')).toEqual(['first', 'second']);
    expect((await put(root, 'EmailDomainWhitelist', 'a.com, b.com,,')).body.success).toBe(true);
    expect(options.get('EmailDomainWhitelist')).toEqual(['a.com', 'b.com']);
    expect((await put(root, 'GroupRatio', '{"default": 1, "vip": 0.5}')).body.success).toBe(true);
    expect(options.get('GroupRatio')).toEqual({ default: 1, vip: 0.5 });
  });

  it('keeps root-only keys away from admins', async () => {
    const response = await put(admin, 'PasswordLoginEnabled', 'false');
    expect(response.body).toMatchObject({ success: false, message: 'Only the super administrator may change PasswordLoginEnabled' });
    expect(await valueOf('PasswordLoginEnabled')).toBe('true');
    expect((await put(admin, 'SMTPToken', 'x')).body.success).toBe(false);
  });

  it('resets model pricing to the shipped defaults', async () => {
    expect((await put(admin, 'ModelRatio', '{"only-model": 1}')).body.success).toBe(true);
    expect((await admin.post('/api/option/rest_model_ratio')).status).toBe(403);
    expect((await root.post('/api/option/rest_model_ratio')).body.success).toBe(true);
    expect(JSON.parse((await valueOf('ModelRatio'))!)).toEqual(JSON.parse(OPTION_DEFINITIONS.ModelRatio.default));
    expect(app.app.get(OptionsService).get('ModelRatio')).toEqual(JSON.parse(OPTION_DEFINITIONS.ModelRatio.default));
  });
});
