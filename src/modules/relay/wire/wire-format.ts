/** A parsed JSON object: bodies, answers and stream chunks of the internal (OpenAI) shape and of the providers' own. */
export type JsonObject = Record<string, unknown>;

/**
 * The wire formats the gateway speaks, inbound (what the client sent) and upstream (what a
 * channel's provider speaks). When they match, bytes pass through; when they differ, the
 * request and answer convert through one internal shape: OpenAI's format for the endpoint.
 * `responses` is OpenAI's Responses API, inbound; upstreams that serve it say so (`ResponsesServing`).
 * `bedrock` and `vertex` are upstream only (Claude's or Gemini's body behind another cloud's
 * URLs, auth and framing). So are the providers' own formats that no client speaks (`baidu`,
 * `zhipu`, `dashscope`, `xunfei`, `tencent`, `cohere`, `replicate`, …), even OpenAI-shaped ones that report
 * errors inside 2xx answers and streams (MiniMax, FastGPT): requests to them always convert, and
 * their answers are always read and translated, never passed through.
 */
export type WireFormat =
  | 'openai'
  | 'responses'
  | 'claude'
  | 'gemini'
  | 'bedrock'
  | 'vertex'
  | 'baidu'
  | 'zhipu'
  | 'dashscope'
  | 'xunfei'
  | 'tencent'
  | 'replicate'
  | 'minimax'
  | 'fastgpt'
  | 'dify'
  | 'coze'
  | 'cohere'
  | 'm3e';
