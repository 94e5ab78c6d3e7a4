import type OpenAI from 'openai';
import { CLAUDE_REPLY_TEXT } from './support/mock-anthropic';
import { GEMINI_REPLY_TEXT } from './support/mock-gemini';
import type { MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { serviceAccountKey, VERTEX_ACCESS_TOKEN, vertexReply } from './support/mock-vertex';
import { startNativeRelayTestbed } from './support/native-relay';

const PRICES = {
  ModelRatio: { 'gemini-test': 1, 'claude-test': 1 },
  CompletionRatio: { 'gemini-test': 2, 'claude-test': 5 },
  CacheRatio: { 'gemini-test': 0.25, 'claude-test': 0.1 },
  CreateCacheRatio: { 'claude-test': 1.25 },
};

describe('relay: Vertex AI channels (type 41)', () => {
  let vertex: MockUpstream;
  let seed: RelaySeed;
  let token: { id: number };
  let openai: OpenAI;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ native: vertex, seed, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    await seed.createChannel({ name: 'vertex', type: 41, base_url: vertex.url, other: 'us-east5', models: 'gemini-test,claude-test', key: serviceAccountKey(`${vertex.url}/token`) });
  });
  afterAll(() => stop());
  beforeEach(() => {
    vertex.reset();
    vertex.handler = vertexReply;
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }

  it('exchanges a signed JWT for an access token once, and calls Gemini models with it', async () => {
    const first = await openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(first.choices[0].message.content).toBe(GEMINI_REPLY_TEXT);
    const stream = await openai.chat.completions.create({ model: 'gemini-test', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0].delta.content ?? '';
    expect(text).toBe(GEMINI_REPLY_TEXT);

    expect(vertex.requests.filter((request) => request.path === '/token')).toHaveLength(1);
    const calls = vertex.requests.filter((request) => request.path !== '/token');
    expect(calls.map((request) => request.path)).toEqual([
      '/v1/projects/mock-project/locations/us-east5/publishers/google/models/gemini-test:generateContent',
      '/v1/projects/mock-project/locations/us-east5/publishers/google/models/gemini-test:streamGenerateContent?alt=sse',
    ]);
    expect(calls.every((request) => request.headers.authorization === `Bearer ${VERTEX_ACCESS_TOKEN}`)).toBe(true);
    expect(await lastLog()).toMatchObject({ quota: 45, prompt_tokens: 30, completion_tokens: 15 });
  });

  it('calls Claude models through rawPredict with the Vertex anthropic_version, billing the cache', async () => {
    const answer = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] });
    expect(answer.choices[0].message.content).toBe(CLAUDE_REPLY_TEXT);
    const sent = vertex.requests.find((request) => request.path.endsWith(':rawPredict'))!;
    expect(sent.path).toBe('/v1/projects/mock-project/locations/us-east5/publishers/anthropic/models/claude-test:rawPredict');
    expect(sent.body).toEqual({ anthropic_version: 'vertex-2023-10-16', system: 'Be brief.', max_tokens: 8192, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
    expect(await lastLog()).toMatchObject({ quota: 1125, prompt_tokens: 2600, completion_tokens: 40 });

    const stream = await openai.chat.completions.create({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }], stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0].delta.content ?? '';
    expect(text).toBe(CLAUDE_REPLY_TEXT);
    expect(vertex.requests.some((request) => request.path.endsWith(':streamRawPredict'))).toBe(true);
  });
});
