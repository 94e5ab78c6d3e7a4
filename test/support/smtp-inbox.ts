import { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server on a loopback port that keeps what it receives, for tests to read. */
export interface SmtpInbox {
  port: number;
  mails: ReceivedMail[];
  /** Resolves with the next mail addressed to `to` (already received or still to come). */
  next(to: string): Promise<ReceivedMail>;
  /** Makes the server refuse every message until called again with false. */
  refuse(on: boolean): void;
  stop(): Promise<void>;
}

export async function startSmtpInbox(credentials: { user: string; pass: string }): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  let refusing = false;

  const deliver = (mail: ReceivedMail) => {
    mails.push(mail);
    const index = waiters.findIndex((waiter) => mail.to.includes(waiter.to));
    if (index >= 0) {
      taken.add(mail);
      waiters.splice(index, 1)[0].resolve(mail);
    }
  };

  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass) return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      if (refusing) {
        stream.resume();
        stream.on('end', () => callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          deliver({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;

  return {
    port,
    mails,
    next(to) {
      const waiting = mails.find((mail) => mail.to.includes(to) && !taken.has(mail));
      if (waiting) {
        taken.add(waiting);
        return Promise.resolve(waiting);
      }
      return new Promise((resolve) => waiters.push({ to, resolve }));
    },
    refuse(on) {
      refusing = on;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
