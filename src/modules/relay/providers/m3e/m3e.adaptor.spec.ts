import { CHANNEL_TYPE } from '../../../channels/channel-types';
import type { RelayChannel } from '../../caches/relay-channel';
import { RelayError } from '../../relay-error';
import type { RelayEndpoint } from '../../relay-endpoints';
import type { UpstreamTarget } from '../adaptor';
import { JinaAdaptor } from '../jina/jina.adaptor';
import { M3eAdaptor } from './m3e.adaptor';

const target = (type: number, endpoint: RelayEndpoint, baseUrl: string): UpstreamTarget => ({
  channel: { type, baseUrl, other: '', openaiOrganization: '', setting: {} } as unknown as RelayChannel,
  key: 'k',
  endpoint,
  upstreamModel: 'up-model',
  stream: false,
});

describe('M3E servers (type 44)', () => {
  const adaptor = new M3eAdaptor();

  it('posts embeddings only, at /v1/embeddings whether or not the base URL was pasted with /v1', () => {
    expect(adaptor.buildUrl(target(CHANNEL_TYPE.MOKAAI, 'embeddings', 'http://m3e:6008/v1/'))?.href).toBe('http://m3e:6008/v1/embeddings');
    expect(adaptor.buildUrl(target(CHANNEL_TYPE.MOKAAI, 'embeddings', 'http://m3e:6008'))?.href).toBe('http://m3e:6008/v1/embeddings');
    expect(adaptor.buildUrl(target(CHANNEL_TYPE.MOKAAI, 'chat', 'http://m3e:6008'))).toBeUndefined();
  });

  it('sends the model and the texts as a list, nothing else; refuses token arrays', async () => {
    const embeddings = target(CHANNEL_TYPE.MOKAAI, 'embeddings', 'http://m3e:6008');
    expect(await adaptor.convertRequest(embeddings, { model: 'm3e-base', input: 'hi there', encoding_format: 'base64', dimensions: 256 })).toEqual({ model: 'up-model', input: ['hi there'] });
    await expect(adaptor.convertRequest(embeddings, { input: [1, 2] })).rejects.toBeInstanceOf(RelayError);
  });

  it("bills total_tokens (the tokenizer's count), not prompt_tokens (a word count)", () => {
    const answer = { data: [{ embedding: [0.5], index: 0, object: 'embedding' }], model: 'm3e-base', object: 'list', usage: { prompt_tokens: 1, total_tokens: 9 } };
    expect(adaptor.parseResponse(answer)).toEqual({ usage: { promptTokens: 9, completionTokens: 0 }, text: '' });
    expect(adaptor.toOpenAIResponse(answer, target(CHANNEL_TYPE.MOKAAI, 'embeddings', ''))).toEqual({ object: 'list', model: 'up-model', data: [{ object: 'embedding', index: 0, embedding: [0.5] }], usage: { prompt_tokens: 9, total_tokens: 9 } });
    expect(adaptor.parseResponse({ data: [], usage: { prompt_tokens: 4 } }).usage).toMatchObject({ promptTokens: 4 });
  });
});

describe('Jina (type 38)', () => {
  const adaptor = new JinaAdaptor();

  it("asks for the SDK's encoding in Jina's own parameter, and leaves rerank bodies as they are", () => {
    const embeddings = target(CHANNEL_TYPE.JINA, 'embeddings', '');
    expect(adaptor.keepsClientBody(embeddings, { model: 'up-model', input: 'a', encoding_format: 'base64' })).toBe(false);
    expect(adaptor.fitRequest(embeddings, { model: 'x', input: 'a', encoding_format: 'base64' })).toEqual({ model: 'up-model', input: 'a', embedding_type: 'base64' });
    expect(adaptor.fitRequest(embeddings, { input: 'a', encoding_format: 'float', embedding_type: 'binary' })).toEqual({ model: 'up-model', input: 'a', embedding_type: 'binary' });
    const rerank = target(CHANNEL_TYPE.JINA, 'rerank', '');
    expect(adaptor.keepsClientBody(rerank, { model: 'up-model', query: 'q', documents: ['d'] })).toBe(true);
    expect(adaptor.buildUrl(rerank)?.href).toBe('https://api.jina.ai/v1/rerank');
    expect(adaptor.buildUrl(target(CHANNEL_TYPE.JINA, 'chat', ''))).toBeUndefined();
  });
});
