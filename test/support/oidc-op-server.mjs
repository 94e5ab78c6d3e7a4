// A real OpenID provider (the oidc-provider package) for tests, run as its own process because
// the package is ESM-only. Discovery, PKCE (required), signed RS256 id_tokens, and a minimal
// login page whose form takes any account name. Prints {"url": ...} once listening.
import http from 'node:http';
import { generateKeyPair, exportJWK } from 'jose';
import Provider from 'oidc-provider';

const { OP_CLIENT_ID, OP_CLIENT_SECRET, OP_REDIRECT_URIS } = process.env;

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const { privateKey } = await generateKeyPair('RS256', { extractable: true });
const signingKey = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' };

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: OP_CLIENT_ID,
      client_secret: OP_CLIENT_SECRET,
      redirect_uris: OP_REDIRECT_URIS.split(' '),
      grant_types: ['authorization_code'],
      response_types: ['code'],
    },
  ],
  jwks: { keys: [signingKey] },
  pkce: { required: () => true },
  cookies: { keys: ['oidc-op-test-cookie-key'] },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username'] },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(_ctx, sub) {
    return {
      accountId: sub,
      async claims() {
        return { sub, email: `${sub}@op.example.test`, email_verified: true, name: `OP ${sub}`, preferred_username: sub };
      },
    };
  },
});

const readForm = (req) =>
  new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(new URLSearchParams(body)));
  });

const loginPage = (uid) => `<!doctype html><html><body><h1>Test OpenID provider</h1>
<form method="post" action="/interaction/${uid}/login">
<label>Account <input name="login" id="op-login" autofocus></label>
<button type="submit" id="op-submit">Sign in</button>
</form></body></html>`;

const callback = provider.callback();
server.on('request', async (req, res) => {
  const match = /^\/interaction\/([\w-]+)(\/login)?$/.exec(req.url.split('?')[0]);
  if (!match) return callback(req, res);
  try {
    const details = await provider.interactionDetails(req, res);
    if (req.method === 'POST' && match[2]) {
      const accountId = (await readForm(req)).get('login');
      const grant = new provider.Grant({ accountId, clientId: details.params.client_id });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      return provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    }
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(loginPage(details.uid));
  } catch (error) {
    res.writeHead(400, { 'Content-Type': 'text/plain' });
    res.end(String(error));
  }
});

process.stdout.write(`${JSON.stringify({ url: issuer })}\n`);
