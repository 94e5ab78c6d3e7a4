import { MailService, smtpTransportOptions } from '../src/modules/mail/mail.service';
import { Session, setupRoot } from './support/accounts';
import { startSmtpInbox, SmtpInbox } from './support/smtp-inbox';
import { startTestApp, TestApp } from './support/test-app';

const SMTP_USER = 'mailer@example.test';
const SMTP_TOKEN = 'smtp-token-never-shown';

describe('mail through the configured SMTP server', () => {
  let app: TestApp;
  let root: Session;
  let inbox: SmtpInbox;
  let mail: MailService;

  const setOption = async (key: string, value: string) => {
    const response = await root.put('/api/option/', { key, value });
    expect(response.body).toMatchObject({ success: true });
  };

  beforeAll(async () => {
    inbox = await startSmtpInbox({ user: SMTP_USER, pass: SMTP_TOKEN });
    app = await startTestApp();
    root = await setupRoot(app);
    mail = app.app.get(MailService);
  });
  afterAll(async () => {
    await app.stop();
    await inbox.stop();
  });

  it('refuses to send before SMTP is configured', async () => {
    expect(mail.isConfigured()).toBe(false);
    await expect(mail.send({ to: 'a@example.test', subject: 'x', text: 'y' })).rejects.toMatchObject({ code: 'mail.not_configured' });
  });

  it('delivers with the account, token and sender from the settings', async () => {
    await setOption('SMTPServer', '127.0.0.1');
    await setOption('SMTPPort', String(inbox.port));
    await setOption('SMTPAccount', SMTP_USER);
    await setOption('SMTPToken', SMTP_TOKEN);
    await setOption('SMTPFrom', 'Gateway <noreply@example.test>');
    expect(mail.isConfigured()).toBe(true);

    await mail.send({ to: 'alice@example.test', subject: '你好 hello', html: '<p>code <b>123456</b></p>', text: 'code 123456' });
    const received = await inbox.next('alice@example.test');
    expect(received).toMatchObject({ from: 'noreply@example.test', subject: '你好 hello' });
    expect(received.text).toContain('code 123456');
    expect(received.html).toContain('<b>123456</b>');

    // The token is write-only through the options API.
    const listed = (await root.get('/api/option/')).body.data as { key: string; value: string }[];
    expect(JSON.stringify(listed)).not.toContain(SMTP_TOKEN);
  });

  it('reports a refused message or a wrong password to the caller, with no secret in the message', async () => {
    inbox.refuse(true);
    const refused = mail.send({ to: 'bob@example.test', subject: 'refused', text: 'x' });
    await expect(refused).rejects.toMatchObject({ code: 'mail.send_failed' });
    await refused.catch((error: { params: { reason: string } }) => expect(error.params.reason).toMatch(/550/));
    inbox.refuse(false);

    await setOption('SMTPToken', 'wrong-token-value');
    const wrongPassword = await mail.send({ to: 'bob@example.test', subject: 'x', text: 'x' }).catch((error: { code: string; params: { reason: string } }) => error);
    expect(wrongPassword).toMatchObject({ code: 'mail.send_failed' });
    expect(JSON.stringify(wrongPassword)).not.toContain('wrong-token-value');
    await setOption('SMTPToken', SMTP_TOKEN);

    // The transport is rebuilt from the restored settings.
    await mail.send({ to: 'carol@example.test', subject: 'after', text: 'ok' });
    expect((await inbox.next('carol@example.test')).subject).toBe('after');
  });

  it('speaks SSL from the first byte when SSL is on, so a plain server never sees a message', async () => {
    await setOption('SMTPSSLEnabled', 'true');
    await expect(mail.send({ to: 'dave@example.test', subject: 'ssl', text: 'x' })).rejects.toMatchObject({ code: 'mail.send_failed' });
    expect(inbox.mails.some((received) => received.to.includes('dave@example.test'))).toBe(false);
    await setOption('SMTPSSLEnabled', 'false');
  });

  it('forces SSL on port 465', () => {
    const settings = { host: 'smtp.example.test', account: 'a', token: 't', from: 'a' };
    expect(smtpTransportOptions({ ...settings, port: 465, secure: false }).secure).toBe(true);
    expect(smtpTransportOptions({ ...settings, port: 587, secure: false }).secure).toBe(false);
    expect(smtpTransportOptions({ ...settings, port: 587, secure: true }).secure).toBe(true);
  });
});
