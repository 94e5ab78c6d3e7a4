import { DataSource } from 'typeorm';
import { UserEntity } from '../src/modules/users/entities/user.entity';
import { createAdmin, registerUser, Session, setupRoot } from './support/accounts';
import { startTestApp, TestApp } from './support/test-app';

describe('admin user management', () => {
  let app: TestApp;
  let root: Session;
  let admin: Session;
  let otherAdmin: Session;
  let alice: Session;
  let snapshot: () => Promise<string>;

  beforeAll(async () => {
    app = await startTestApp();
    root = await setupRoot(app);
    admin = await createAdmin(app, root, 'admin1');
    otherAdmin = await createAdmin(app, root, 'admin2');
    alice = await registerUser(app, 'alice');
    for (const name of ['bob', 'carol', 'dave_x', 'erin%1']) await app.http.post('/api/user/register').send({ username: name, password: 'user-pass-1' });
    const repository = app.app.get(DataSource).getRepository(UserEntity);
    snapshot = async () => JSON.stringify(await repository.find({ withDeleted: true, order: { id: 'ASC' } }));
  });
  afterAll(() => app.stop());

  it('lists users page by page without secrets', async () => {
    const page = (await admin.get('/api/user/?p=1&page_size=3')).body.data;
    expect(page).toMatchObject({ page: 1, page_size: 3, total: 8 });
    expect(page.items).toHaveLength(3);
    for (const item of page.items) {
      expect(item).not.toHaveProperty('password');
      expect(item).not.toHaveProperty('access_token');
    }
    const last = (await admin.get('/api/user/?p=3&page_size=3')).body.data;
    expect(last.items).toHaveLength(2);
    const silly = (await admin.get('/api/user/?p=-4&page_size=abc')).body.data;
    expect(silly).toMatchObject({ page: 1, page_size: 10 });
  });

  it('searches by id, username, display name and email, with LIKE wildcards taken literally', async () => {
    const byName = (await admin.get('/api/user/search?keyword=car')).body.data;
    expect(byName.items.map((u: { username: string }) => u.username)).toEqual(['carol']);
    const byId = (await admin.get(`/api/user/search?keyword=${alice.id}`)).body.data;
    expect(byId.items.map((u: { id: number }) => u.id)).toContain(alice.id);
    const percent = (await admin.get('/api/user/search?keyword=%25')).body.data;
    expect(percent.items.map((u: { username: string }) => u.username)).toEqual(['erin%1']);
    const underscore = (await admin.get('/api/user/search?keyword=_')).body.data;
    expect(underscore.items.map((u: { username: string }) => u.username)).toEqual(['dave_x']);
    const injection = await admin.get(`/api/user/search?keyword=${encodeURIComponent("' OR 1=1 --")}`);
    expect(injection.body).toMatchObject({ success: true, data: { total: 0 } });
    const byGroup = (await admin.get('/api/user/search?keyword=&group=vip')).body.data;
    expect(byGroup.total).toBe(0);
  });

  it('creates users with validation and refuses equal or higher roles', async () => {
    const before = await snapshot();
    const bad: [object, string][] = [
      [{ username: '', password: 'abcdefgh' }, 'Please enter the username and password!'],
      [{ username: 'newbie', password: '' }, 'Please enter the username and password!'],
      [{ username: 'newbie', password: 'short' }, 'Password must be 8 to 20 characters long'],
      [{ username: 'x'.repeat(13), password: 'abcdefgh' }, 'Username must be at most 12 characters'],
      [{ username: 'alice', password: 'abcdefgh' }, 'The username is already taken, or belonged to a deleted account'],
      [{ username: 'sneaky', password: 'abcdefgh', role: 10 }, 'You cannot create a user with a role equal to or above your own'],
      [{ username: 'sneaky', password: 'abcdefgh', role: 100 }, 'You cannot create a user with a role equal to or above your own'],
    ];
    for (const [body, message] of bad) {
      const response = await admin.post('/api/user/', body).set('Accept-Language', 'en');
      expect({ body, answer: response.body }).toEqual({ body, answer: { success: false, message, data: null } });
    }
    expect(await snapshot()).toBe(before);
    expect((await admin.post('/api/user/', { username: 'newbie', password: 'abcdefgh', display_name: 'New Bie' })).body.success).toBe(true);
    const found = (await admin.get('/api/user/search?keyword=newbie')).body.data.items[0];
    expect(found).toMatchObject({ username: 'newbie', display_name: 'New Bie', role: 1, status: 1 });
  });

  it('edits group and quota, and refuses bad quota without changing anything', async () => {
    const before = await snapshot();
    for (const quota of [-1, 1.5, '100', 1e300]) {
      const response = await admin.put('/api/user/', { id: alice.id, quota }).set('Accept-Language', 'en');
      expect(response.body.success).toBe(false);
    }
    const unknownGroup = await admin.put('/api/user/', { id: alice.id, group: 'nope' }).set('Accept-Language', 'en');
    expect(unknownGroup.body).toMatchObject({ success: false, message: 'No such group: nope' });
    expect(await snapshot()).toBe(before);

    const response = await admin.put('/api/user/', { id: alice.id, quota: 123456, group: 'vip', display_name: 'Alice' });
    expect(response.body.data).toMatchObject({ quota: 123456, group: 'vip', display_name: 'Alice' });
    expect((await alice.get('/api/user/self')).body.data).toMatchObject({ quota: 123456, group: 'vip' });
    const sameLevel = await admin.put('/api/user/', { id: otherAdmin.id, quota: 5 }).set('Accept-Language', 'en');
    expect(sameLevel.body).toMatchObject({ success: false, message: 'You cannot act on users of the same or a higher role' });
    const rootTarget = await admin.get(`/api/user/${root.id}`).set('Accept-Language', 'en');
    expect(rootTarget.body.success).toBe(false);
    expect((await admin.get(`/api/user/${alice.id}`)).body.data.username).toBe('alice');
    expect((await admin.get('/api/user/abc')).body.success).toBe(false);
  });

  it('applies the role rules of manage', async () => {
    const expectMessage = async (session: Session, body: object, message: string) => {
      const response = await session.post('/api/user/manage', body).set('Accept-Language', 'en');
      expect({ body, answer: response.body }).toMatchObject({ body, answer: { success: false, message } });
    };
    const bob = (await admin.get('/api/user/search?keyword=bob')).body.data.items[0];

    await expectMessage(admin, { id: bob.id, action: 'promote' }, 'Only the super administrator can promote users to admin');
    await expectMessage(admin, { id: otherAdmin.id, action: 'disable' }, 'You cannot act on users of the same or a higher role');
    await expectMessage(admin, { id: root.id, action: 'delete' }, 'You cannot act on users of the same or a higher role');
    await expectMessage(root, { id: root.id, action: 'disable' }, 'The super administrator cannot be disabled');
    await expectMessage(root, { id: root.id, action: 'delete' }, 'The super administrator cannot be deleted');
    await expectMessage(root, { id: root.id, action: 'demote' }, 'The super administrator cannot be demoted');
    await expectMessage(root, { id: bob.id, action: 'demote' }, 'This user is already an ordinary user');
    await expectMessage(root, { id: admin.id, action: 'promote' }, 'This user is already an admin');
    await expectMessage(root, { id: bob.id, action: 'explode' }, 'Invalid action');
    await expectMessage(root, { id: 'x', action: 'disable' }, 'Invalid id');
    await expectMessage(root, { id: 99999, action: 'disable' }, 'User not found');

    expect((await admin.post('/api/user/manage', { id: bob.id, action: 'disable' })).body.data).toEqual({ status: 2, role: 1 });
    expect((await admin.post('/api/user/manage', { id: bob.id, action: 'enable' })).body.data).toEqual({ status: 1, role: 1 });
    expect((await root.post('/api/user/manage', { id: bob.id, action: 'promote' })).body.data).toEqual({ status: 1, role: 10 });
    expect((await root.post('/api/user/manage', { id: bob.id, action: 'demote' })).body.data).toEqual({ status: 1, role: 1 });
    expect((await root.post('/api/user/manage', { id: otherAdmin.id, action: 'disable' })).body.data).toEqual({ status: 2, role: 10 });
    expect((await admin.post('/api/user/manage', { id: bob.id, action: 'delete' })).body.success).toBe(true);

    const deleted = (await admin.get('/api/user/search?keyword=bob')).body.data.items[0];
    expect(deleted.DeletedAt).not.toBeNull();
    await expectMessage(admin, { id: bob.id, action: 'enable' }, 'User not found');
  });

  it('keeps ordinary users out of management', async () => {
    expect((await alice.get('/api/user/')).status).toBe(403);
    expect((await alice.post('/api/user/manage', { id: alice.id, action: 'promote' })).status).toBe(403);
    expect((await alice.put('/api/user/', { id: alice.id, quota: 1e9 })).status).toBe(403);
  });
});
