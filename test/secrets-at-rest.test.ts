import { DataSource } from 'typeorm';
import { OptionEntity } from '../src/modules/options/entities/option.entity';
import { OptionsService } from '../src/modules/options/options.service';
import { TokensService } from '../src/modules/tokens/tokens.service';
import { registerUser, setupRoot, type Session } from './support/accounts';
import { startTestApp, TestApp, testSql } from './support/test-app';

describe('secrets at rest: secret settings and API keys', () => {
  let app: TestApp;
  let root: Session;
  let dataSource: DataSource;
  const storedValue = async (key: string) => (await dataSource.getRepository(OptionEntity).findOneBy({ key }))?.value;

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    dataSource = app.app.get(DataSource);
  });
  afterAll(() => app.stop());

  it('stores a secret setting encrypted, and the gateway still reads it in the clear', async () => {
    expect((await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-token-in-the-clear' })).body.success).toBe(true);
    const stored = await storedValue('SMTPToken');
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain('smtp-token-in-the-clear');
    expect(app.app.get(OptionsService).get('SMTPToken')).toBe('smtp-token-in-the-clear');
    // Ordinary settings stay readable in the table.
    expect((await root.put('/api/option/', { key: 'SMTPServer', value: 'smtp.example.test' })).body.success).toBe(true);
    expect(await storedValue('SMTPServer')).toBe('smtp.example.test');
  });

  it('encrypts secret rows written in the clear by an older version when the gateway starts', async () => {
    await dataSource.createQueryBuilder().insert().into('options').values({ key: 'TurnstileSecretKey', value: 'legacy-plain-secret' }).execute();
    await dataSource.createQueryBuilder().insert().into('options').values({ key: 'TurnstileSiteKey', value: 'public-site-key' }).execute();
    // The start-up step of a restarted gateway.
    await app.app.get(OptionsService).onModuleInit();
    const stored = await storedValue('TurnstileSecretKey');
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain('legacy-plain-secret');
    expect(await storedValue('TurnstileSiteKey')).toBe('public-site-key');
    expect(app.app.get(OptionsService).get('TurnstileSecretKey')).toBe('legacy-plain-secret');
    const listed = (await root.get('/api/option/')).body.data as Array<{ key: string; value: string; is_set?: boolean }>;
    expect(listed.find((option) => option.key === 'TurnstileSecretKey')).toEqual({ key: 'TurnstileSecretKey', value: '', is_set: true });
  });

  it('hashes and encrypts API keys stored in the clear by an older version at start; they keep working and the console still shows them', async () => {
    const alice = await registerUser(app, 'alice');
    const plainKey = 'LegacyPlainKey0123456789abcdefghijklmnopqrstuvwx';
    await dataSource.createQueryBuilder().insert().into('tokens').values({ user_id: alice.id, key: plainKey, key_hash: null, name: 'legacy', status: 1, remain_quota: 0, unlimited_quota: true, created_time: 0, accessed_time: 0, expired_time: -1, used_quota: 0 }).execute();
    // The start-up step of a restarted gateway.
    await app.app.get(TokensService).onModuleInit();
    const [row] = await dataSource.query(testSql(`SELECT id, ${dataSource.driver.escape('key')} AS stored, key_hash FROM tokens WHERE name = ?`), ['legacy']);
    expect(row.stored).toMatch(/^enc:v1:/);
    expect(row.stored).not.toContain(plainKey);
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);

    const models = await app.http.get('/v1/models').set('Authorization', `Bearer sk-${plainKey}`);
    expect(models.status).toBe(200);
    expect((await app.http.get('/v1/models').set('Authorization', `Bearer sk-${plainKey.replace('Legacy', 'Forged')}`)).status).toBe(401);
    expect((await alice.get(`/api/token/${row.id}`)).body.data.key).toBe(`sk-${plainKey}`);
  });
});
