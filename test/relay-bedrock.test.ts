import OpenAI from 'openai';
import { CLAUDE_REPLY_TEXT } from './support/mock-anthropic';
import { BEDROCK_KEY, bedrockReply } from './support/mock-bedrock';
import type { MockUpstream } from './support/mock-upstream';
import type { RelaySeed } from './support/mock-upstream-seed';
import { startNativeRelayTestbed } from './support/native-relay';

/** The mock reports Claude's usage: 100 + 2000 × 0.1 + 500 × 1.25 + 40 × 5 = 1125 quota. */
const QUOTA = 1125;
const PRICES = {
  ModelRatio: { 'claude-bedrock': 1 },
  CompletionRatio: { 'claude-bedrock': 5 },
  CacheRatio: { 'claude-bedrock': 0.1 },
  CreateCacheRatio: { 'claude-bedrock': 1.25 },
};
const MODEL_ID = 'anthropic.claude-sonnet-4-5-v1:0';

describe('relay: AWS Bedrock Claude channels (type 33)', () => {
  let bedrock: MockUpstream;
  let seed: RelaySeed;
  let token: { id: number };
  let openai: OpenAI;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    ({ native: bedrock, seed, token, openai, stop } = await startNativeRelayTestbed(PRICES));
    const key = `${BEDROCK_KEY.accessKeyId}|${BEDROCK_KEY.secretAccessKey}|${BEDROCK_KEY.region}`;
    await seed.createChannel({ name: 'bedrock', type: 33, base_url: bedrock.url, models: 'claude-bedrock', key, model_mapping: JSON.stringify({ 'claude-bedrock': MODEL_ID }) });
  });
  afterAll(() => stop());
  beforeEach(() => {
    bedrock.reset();
    bedrock.handler = bedrockReply;
  });

  async function lastLog() {
    await seed.flush();
    return (await seed.consumeLogs({ tokenId: token.id })).slice(-1)[0];
  }

  it('signs with SigV4 and invokes the model with a Claude body, billing cache reads and writes', async () => {
    const answer = await openai.chat.completions.create({
      model: 'claude-bedrock',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }],
    });
    expect(answer.choices[0].message.content).toBe(CLAUDE_REPLY_TEXT);
    const sent = bedrock.requests[0];
    expect(sent.path).toBe(`/model/${encodeURIComponent(MODEL_ID)}/invoke`);
    expect(sent.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAMOCKACCESSKEY\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=/);
    expect(sent.body).toEqual({
      anthropic_version: 'bedrock-2023-05-31',
      system: 'Be brief.',
      max_tokens: 8192,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } }] }],
      tools: [{ name: 'get_weather', input_schema: { type: 'object', properties: {} } }],
    });
    expect(await lastLog()).toMatchObject({ quota: QUOTA, prompt_tokens: 2600, completion_tokens: 40 });
  });

  it('decodes the binary event stream into OpenAI chunks', async () => {
    const stream = await openai.chat.completions.create({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    const usages = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usages.push(chunk.usage);
    }
    expect(text).toBe(CLAUDE_REPLY_TEXT);
    expect(usages).toEqual([expect.objectContaining({ prompt_tokens: 2600, completion_tokens: 40 })]);
    expect(bedrock.requests[0].path).toBe(`/model/${encodeURIComponent(MODEL_ID)}/invoke-with-response-stream`);
    expect(await lastLog()).toMatchObject({ quota: QUOTA });
  });

  it('fails over as a channel fault when AWS refuses the signature, without revealing the key', async () => {
    bedrock.handler = () => ({ status: 403, json: { message: `The security token included in the request is invalid: ${BEDROCK_KEY.secretAccessKey}` } });
    const error = await openai.chat.completions.create({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'hi' }] }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(JSON.stringify((error as InstanceType<typeof OpenAI.APIError>).error)).not.toContain(BEDROCK_KEY.secretAccessKey);
  });
});
