import { toFile } from 'openai';
import { DEFAULT_MODEL_PRICE } from '../src/modules/pricing/default-ratios';
import { startNativeRelayTestbed, type NativeRelayTestbed } from './support/native-relay';
import { MJ_SECRET, MockMidjourneyProxy, MockSunoApi, SUNO_KEY } from './support/mock-task-upstreams';

/** QuotaPerUnit's default: $1 is 500000 quota. */
const QUOTA_PER_USD = 500_000;

const IMAGE_PRICES = {
  'dall-e-3': { '1024x1024': { standard: 0.04, hd: 0.08 }, '1792x1024': { hd: 0.12 } },
  'dall-e-2': { '512x512': 0.018, '*': 0.02 },
};
const AUDIO_PRICES = { 'tts-1': { output: 0.0005 }, 'whisper-1': { input: 0.0001 } };
const TASK_ACTION_PRICES = { midjourney: { IMAGINE: 0.3 }, suno: { MUSIC: 0.25 } };

/** A RIFF/WAVE file of `seconds` of silence at 8 kHz, 8-bit mono (8000 bytes a second). */
function wavOf(seconds: number): Buffer {
  const data = Buffer.alloc(8000 * seconds, 0x80);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'latin1');
  header.write('fmt ', 12, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24); // sample rate
  header.writeUInt32LE(8000, 28); // byte rate
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

describe('media prices: images, audio and task actions billed per unit', () => {
  let bed: NativeRelayTestbed;

  beforeAll(async () => {
    bed = await startNativeRelayTestbed({});
    for (const [key, table] of Object.entries({ ImagePrices: IMAGE_PRICES, AudioPrices: AUDIO_PRICES, TaskActionPrices: TASK_ACTION_PRICES })) await bed.seed.setOption(key, JSON.stringify(table));
    await bed.seed.createChannel({ name: 'media', base_url: bed.openaiUpstream.url, models: 'dall-e-3,dall-e-2,tts-1,whisper-1' });
    bed.openaiUpstream.handler = (request) => {
      if (request.path === '/v1/images/generations') return { status: 200, json: { created: 1, data: Array.from({ length: Number(request.body.n ?? 1) }, (_, i) => ({ url: `https://img.invalid/${i}.png` })) } };
      if (request.path === '/v1/images/edits') return { status: 200, json: { created: 1, data: [{ url: 'https://img.invalid/edit.png' }] } };
      if (request.path === '/v1/audio/speech') return { status: 200, text: Buffer.from('ID3 fake mp3 bytes'), contentType: 'audio/mpeg' };
      if (request.path === '/v1/audio/transcriptions') {
        const verbose = request.raw.includes('verbose_json');
        return { status: 200, json: verbose ? { task: 'transcribe', language: 'english', duration: 7.2, text: 'hello there' } : { text: 'hello there' } };
      }
      return undefined;
    };
  });
  afterAll(() => bed.stop());

  /** Alice's balance and her token's, once every settlement is written. */
  const balances = async () => {
    await bed.seed.flush();
    return { user: (await bed.seed.userQuota(bed.alice.id)).quota, token: (await bed.seed.tokenQuota(bed.token.id)).remain_quota };
  };

  it('bills an image generation per image at the size and quality asked, times the group ratio, and logs the unit price', async () => {
    await bed.seed.setOption('GroupRatio', JSON.stringify({ default: 1.5, vip: 1, svip: 1 }));
    try {
      const before = await balances();
      const image = await bed.openai.images.generate({ model: 'dall-e-3', prompt: 'a fox', size: '1024x1024', quality: 'hd', n: 2 });
      expect(image.data).toHaveLength(2);
      // 2 images × $0.08 × 500000 × 1.5
      const expected = 120_000;
      expect(2 * 0.08 * QUOTA_PER_USD * 1.5).toBeCloseTo(expected);
      const log = await bed.lastLog();
      expect(log).toMatchObject({ model_name: 'dall-e-3', quota: expected, prompt_tokens: 0, completion_tokens: 0 });
      expect(log.other).toMatchObject({ group_ratio: 1.5, media_price: { unit: 'image', count: 2, price: 0.08, size: '1024x1024', quality: 'hd' } });
      // The console renders the key in the reader's language; content stays the Chinese text.
      expect(log.other).toMatchObject({ message_key: 'consume_media_image', message_params: { price: 0.08, count: 2, groupRatio: 1.5 } });
      expect(log.content).toBe('单价 0.08 / 张 × 2，分组倍率 1.5');
      const after = await balances();
      expect(before.user - after.user).toBe(expected);
      expect(before.token - after.token).toBe(expected);
    } finally {
      await bed.seed.setOption('GroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
    }
  });

  it('prices a size the table does not list at "*", and refuses a listed model at an unpriced size or quality before calling upstream', async () => {
    await bed.openai.images.generate({ model: 'dall-e-2', prompt: 'a fox', size: '256x256' });
    expect(await bed.lastLog()).toMatchObject({ model_name: 'dall-e-2', quota: 10_000 });

    const calls = bed.openaiUpstream.requests.length;
    const before = await balances();
    const refused = await bed.openai.images.generate({ model: 'dall-e-3', prompt: 'a fox', size: '1792x1024', quality: 'standard' }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400 });
    expect(String((refused as Error).message)).toContain('no image price for size 1792x1024 and quality standard');
    const tooMany = await bed.openai.images.generate({ model: 'dall-e-3', prompt: 'a fox', size: '1024x1024', n: 11 }).catch((error: unknown) => error);
    expect(tooMany).toMatchObject({ status: 400 });
    expect(bed.openaiUpstream.requests.length).toBe(calls);
    expect(await balances()).toEqual(before);
  });

  it('bills an image edit (multipart) by its size field and n', async () => {
    const before = await balances();
    await bed.openai.images.edit({ model: 'dall-e-2', image: await toFile(Buffer.from('not really a png'), 'fox.png', { type: 'image/png' }), prompt: 'add a hat', size: '512x512', n: 3 });
    const log = await bed.lastLog();
    // 3 × $0.018 × 500000
    expect(log).toMatchObject({ model_name: 'dall-e-2', quota: 27_000 });
    expect(log.other).toMatchObject({ media_price: { unit: 'image', count: 3, price: 0.018, size: '512x512', quality: '' }, request_path: '/images/edits' });
    expect(before.user - (await balances()).user).toBe(27_000);
  });

  it('bills speech by the seconds its text makes (15 characters a second, over the speed)', async () => {
    const before = await balances();
    const speech = await bed.openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'x'.repeat(150) });
    expect(Buffer.from(await speech.arrayBuffer()).toString()).toBe('ID3 fake mp3 bytes');
    // 150 characters → 10 s × $0.0005 × 500000
    let log = await bed.lastLog();
    expect(log).toMatchObject({ model_name: 'tts-1', quota: 2_500 });
    expect(log.other).toMatchObject({ media_price: { unit: 'second', count: 10, price: 0.0005, basis: 'text' }, message_key: 'consume_media_second' });
    expect(before.user - (await balances()).user).toBe(2_500);

    // Chinese at 4 characters a second, at double speed: 40 characters → 10 s → 5 s.
    await bed.openai.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: '狐'.repeat(40), speed: 2 });
    log = await bed.lastLog();
    expect(log).toMatchObject({ quota: 1_250 });
    expect(log.other).toMatchObject({ media_price: { count: 5 } });
  });

  it("bills a transcription by the answer's duration, or by the uploaded WAV's length when the answer has none", async () => {
    const wav = await toFile(wavOf(3), 'hello.wav', { type: 'audio/wav' });
    let before = await balances();
    await bed.openai.audio.transcriptions.create({ model: 'whisper-1', file: wav, response_format: 'verbose_json' });
    // The answer says 7.2 s: 8 whole seconds × $0.0001 × 500000 (the hold of 3 s is settled up).
    let log = await bed.lastLog();
    expect(log).toMatchObject({ model_name: 'whisper-1', quota: 400 });
    expect(log.other).toMatchObject({ media_price: { unit: 'second', count: 8, price: 0.0001, basis: 'answer' } });
    expect(before.user - (await balances()).user).toBe(400);

    before = await balances();
    await bed.openai.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(wavOf(3), 'hello.wav', { type: 'audio/wav' }) });
    log = await bed.lastLog();
    expect(log).toMatchObject({ quota: 150 });
    expect(log.other).toMatchObject({ media_price: { count: 3, basis: 'upload' } });
    expect(before.user - (await balances()).user).toBe(150);
  });

  it('bills a model with no media price as before (ModelPrice)', async () => {
    await bed.seed.setOption('ModelPrice', JSON.stringify({ ...DEFAULT_MODEL_PRICE, 'dall-e-3-legacy': 0.05 }));
    await bed.seed.createChannel({ name: 'legacy', base_url: bed.openaiUpstream.url, models: 'dall-e-3-legacy' });
    await bed.openai.images.generate({ model: 'dall-e-3-legacy', prompt: 'a fox', n: 2 });
    const log = await bed.lastLog();
    expect(log).toMatchObject({ model_name: 'dall-e-3-legacy', quota: 25_000 });
    expect(log.other.media_price).toBeUndefined();
  });

  describe('task actions', () => {
    let mj: MockMidjourneyProxy;
    let suno: MockSunoApi;
    beforeAll(async () => {
      mj = await new MockMidjourneyProxy().start();
      suno = await new MockSunoApi().start();
      await bed.seed.setOption('DrawingEnabled', true);
      await bed.seed.setOption('TaskEnabled', true);
      await bed.seed.createChannel({ name: 'mj', type: 2, base_url: mj.baseUrl, key: MJ_SECRET, models: 'mj_imagine,mj_describe' });
      await bed.seed.createChannel({ name: 'suno', type: 36, base_url: suno.baseUrl, key: SUNO_KEY, models: 'suno_music,suno_lyrics' });
    });
    afterAll(async () => {
      await mj.stop();
      await suno.stop();
    });

    it('bills a Midjourney imagine and a Suno song from TaskActionPrices, and an unlisted action by ModelPrice', async () => {
      const submit = (path: string, body: object) => bed.app.http.post(path).set('Authorization', `Bearer ${bed.token.apiKey}`).send(body);
      let before = await balances();
      expect((await submit('/mj/submit/imagine', { prompt: 'a red fox' })).body).toMatchObject({ code: 1 });
      let log = await bed.lastLog();
      // $0.3 × 500000
      expect(log).toMatchObject({ model_name: 'mj_imagine', quota: 150_000 });
      expect(log.other).toMatchObject({ model_price: 0.3, media_price: { unit: 'call', count: 1, price: 0.3, platform: 'midjourney', action: 'IMAGINE' } });
      let after = await balances();
      expect(before.user - after.user).toBe(150_000);
      expect(before.token - after.token).toBe(150_000);

      before = after;
      expect((await submit('/suno/submit/music', { prompt: 'a song about foxes' })).body).toMatchObject({ code: 'success' });
      log = await bed.lastLog();
      expect(log).toMatchObject({ model_name: 'suno_music', quota: 125_000 });
      expect(log.other).toMatchObject({ media_price: { unit: 'call', count: 1, price: 0.25, platform: 'suno', action: 'MUSIC' } });
      after = await balances();
      expect(before.user - after.user).toBe(125_000);

      // DESCRIBE has no entry: its ModelPrice (shipped default $0.05).
      expect((await submit('/mj/submit/describe', { base64: 'data:image/png;base64,AAAA' })).body).toMatchObject({ code: 1 });
      log = await bed.lastLog();
      expect(log).toMatchObject({ model_name: 'mj_describe', quota: 25_000 });
      expect(log.other.media_price).toBeUndefined();
    });
  });

  it('refuses a malformed table with the place it breaks, and keeps the stored one', async () => {
    const put = (key: string, value: unknown) => bed.root.put('/api/option/', { key, value: JSON.stringify(value) }).set('Accept-Language', 'en');
    const cases: [string, unknown, string][] = [
      ['ImagePrices', { 'dall-e-3': { '1024x1024': { hd: 'cheap' } } }, 'ImagePrices is wrong at dall-e-3 → 1024x1024 → hd'],
      ['ImagePrices', { 'dall-e-3': 0.04 }, 'ImagePrices is wrong at dall-e-3:'],
      ['AudioPrices', { 'tts-1': { per_second: 0.01 } }, 'AudioPrices is wrong at tts-1 → per_second'],
      ['AudioPrices', { 'tts-1': { output: -1 } }, 'AudioPrices is wrong at tts-1 → output'],
      ['VideoPrices', { sora: { '720p': 2_000_000 } }, 'VideoPrices is wrong at sora → 720p'],
      ['TaskActionPrices', { midjourney: { IMAGIN: 0.1 } }, 'TaskActionPrices is wrong at midjourney → IMAGIN'],
      ['TaskActionPrices', { kling: { VIDEO: 0.1 } }, 'TaskActionPrices is wrong at kling:'],
      ['TaskActionPrices', [], 'TaskActionPrices is wrong at (top level)'],
    ];
    for (const [key, value, message] of cases) {
      const answer = await put(key, value);
      expect({ key, success: answer.body.success, status: answer.status }).toEqual({ key, success: false, status: 200 });
      expect(answer.body.message).toContain(message);
    }
    const zh = await bed.root.put('/api/option/', { key: 'ImagePrices', value: '{"dall-e-3": {"1024x1024": {"hd": "cheap"}}}' }).set('Accept-Language', 'zh');
    expect(zh.body.message).toContain('配置项 ImagePrices 在 dall-e-3 → 1024x1024 → hd 处有误');
    const stored = ((await bed.root.get('/api/option/')).body.data as { key: string; value: string }[]).find((option) => option.key === 'ImagePrices');
    expect(JSON.parse(stored?.value ?? '{}')).toEqual(IMAGE_PRICES);
  });

  it('shows the media prices on the public pricing page', async () => {
    await bed.seed.setOption('VideoPrices', JSON.stringify({ 'dall-e-2': { '720p': 0.1 } }));
    const rows = new Map(((await bed.app.http.get('/api/pricing')).body.data as { model_name: string; media_prices?: unknown; price_set: boolean }[]).map((row) => [row.model_name, row]));
    expect(rows.get('dall-e-3')).toMatchObject({ price_set: true, media_prices: { image: IMAGE_PRICES['dall-e-3'] } });
    expect(rows.get('dall-e-2')?.media_prices).toEqual({ image: IMAGE_PRICES['dall-e-2'], video: { '720p': 0.1 } });
    expect(rows.get('whisper-1')?.media_prices).toEqual({ audio: { input: 0.0001 } });
    expect(rows.get('mj_imagine')?.media_prices).toEqual({ call: 0.3 });
    expect(rows.get('mj_describe')?.media_prices).toBeUndefined();
    expect(rows.get('gpt-test')?.media_prices).toBeUndefined();
  });
});
