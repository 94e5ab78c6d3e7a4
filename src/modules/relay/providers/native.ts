import type { Provider, Type } from '@nestjs/common';
import type { NativeAdaptor } from './adaptor';
import { AliAdaptor } from './ali/ali.adaptor';
import { AnthropicAdaptor } from './anthropic/anthropic.adaptor';
import { AzureAdaptor } from './azure/azure.adaptor';
import { BaiduAdaptor } from './baidu/baidu.adaptor';
import { BaiduTokenService } from './baidu/baidu-token.service';
import { BedrockAdaptor } from './bedrock/bedrock.adaptor';
import { ClaudeSettings } from './claude/claude-settings';
import { CohereAdaptor } from './cohere/cohere.adaptor';
import { CozeAdaptor } from './coze/coze.adaptor';
import { DifyAdaptor } from './dify/dify.adaptor';
import { FastGPTAdaptor } from './fastgpt/fastgpt.adaptor';
import { GeminiSettings } from './gemini/gemini-settings';
import { GeminiAdaptor } from './gemini/gemini.adaptor';
import { ImageFetcherService } from './image-fetcher.service';
import { JinaAdaptor } from './jina/jina.adaptor';
import { M3eAdaptor } from './m3e/m3e.adaptor';
import { MiniMaxAdaptor } from './minimax/minimax.adaptor';
import { ReplicateAdaptor } from './replicate/replicate.adaptor';
import { TencentAdaptor } from './tencent/tencent.adaptor';
import { VertexAdaptor } from './vertex/vertex.adaptor';
import { VertexTokenService } from './vertex/vertex-token.service';
import { XunfeiAdaptor } from './xunfei/xunfei.adaptor';
import { ZhipuTokenService } from './zhipu/zhipu-token.service';
import { ZhipuV4Adaptor } from './zhipu/zhipu-v4.adaptor';
import { ZhipuAdaptor } from './zhipu/zhipu.adaptor';

/**
 * Every provider with an adaptor of its own (a folder beside this file). Each adaptor names the
 * catalogue types it serves (`channelTypes`); the registry checks them against the catalogue's
 * `servedBy: 'native'` rows at start. To add one: its folder, its catalogue row, and a line here.
 */
export const NATIVE_ADAPTORS: readonly Type<NativeAdaptor>[] = [
  AzureAdaptor,
  AnthropicAdaptor,
  GeminiAdaptor,
  BedrockAdaptor,
  VertexAdaptor,
  BaiduAdaptor,
  ReplicateAdaptor,
  MiniMaxAdaptor,
  FastGPTAdaptor,
  DifyAdaptor,
  CozeAdaptor,
  ZhipuAdaptor,
  ZhipuV4Adaptor,
  AliAdaptor,
  XunfeiAdaptor,
  TencentAdaptor,
  CohereAdaptor,
  JinaAdaptor,
  M3eAdaptor,
];

/** The services the native adaptors use (settings, token caches, image fetching), for the relay module to provide. */
export const PROVIDER_SERVICES: readonly Provider[] = [
  ClaudeSettings,
  GeminiSettings,
  ImageFetcherService,
  VertexTokenService,
  BaiduTokenService,
  ZhipuTokenService,
];

/** The injection token of the native adaptors' instances, as the registry receives them. */
export const NATIVE_ADAPTOR_INSTANCES = Symbol('NATIVE_ADAPTOR_INSTANCES');

/** Nest's providers for the native adaptors, their services and the list of their instances. */
export const NATIVE_PROVIDERS: Provider[] = [
  ...PROVIDER_SERVICES,
  ...NATIVE_ADAPTORS,
  { provide: NATIVE_ADAPTOR_INSTANCES, useFactory: (...adaptors: NativeAdaptor[]) => adaptors, inject: [...NATIVE_ADAPTORS] },
];
