import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadAppConfig } from '../../config/app-config';
import { CHANNEL_TYPE } from '../channels/channel-types';
import { genAiOperation, genAiSystem } from './gen-ai-attributes';

const BASE_ENV = { SESSION_SECRET: 'tracing-spec-secret', SQLITE_PATH: path.join(tmpdir(), 'gw-tracing-spec', 'db.sqlite') };
const tracing = (env: Record<string, string>) => loadAppConfig({ ...BASE_ENV, ...env }).tracing;

describe('tracing configuration', () => {
  it('is off without an OTLP endpoint, and when OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none say so', () => {
    expect(tracing({}).enabled).toBe(false);
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }).enabled).toBe(false);
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).enabled).toBe(false);
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }).enabled).toBe(false);
  });

  it('is on with either endpoint variable; http/protobuf by default, the traces protocol over the shared one', () => {
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({ enabled: true, protocol: 'http/protobuf' });
    expect(tracing({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({ enabled: true, protocol: 'http/json' });
    expect(tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' }).protocol).toBe('http/protobuf');
  });

  it('refuses an unknown protocol at start, naming the variable', () => {
    expect(() => tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/xml' })).toThrow(ConfigError);
    expect(() => tracing({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'thrift' })).toThrow(/OTEL_EXPORTER_OTLP_TRACES_PROTOCOL/);
  });
});

describe('GenAI attributes', () => {
  it('names providers as the conventions do, and the others by their catalogue name', () => {
    expect(genAiSystem(CHANNEL_TYPE.OPENAI)).toBe('openai');
    expect(genAiSystem(CHANNEL_TYPE.ANTHROPIC)).toBe('anthropic');
    expect(genAiSystem(CHANNEL_TYPE.GEMINI)).toBe('gcp.gemini');
    expect(genAiSystem(CHANNEL_TYPE.VERTEX)).toBe('gcp.vertex_ai');
    expect(genAiSystem(CHANNEL_TYPE.AWS)).toBe('aws.bedrock');
    expect(genAiSystem(CHANNEL_TYPE.AZURE)).toBe('az.ai.openai');
    expect(genAiSystem(CHANNEL_TYPE.ZHIPU_V4)).toBe('zhipu_v4');
    expect(genAiSystem(CHANNEL_TYPE.GATEWAY)).toBe('another_gateway');
    expect(genAiSystem(9999)).toBe('channel_type_9999');
  });

  it('names operations as the conventions do', () => {
    expect(genAiOperation('chat')).toBe('chat');
    expect(genAiOperation('responses')).toBe('chat');
    expect(genAiOperation('completions')).toBe('text_completion');
    expect(genAiOperation('embeddings')).toBe('embeddings');
    expect(genAiOperation('rerank')).toBe('rerank');
  });
});
