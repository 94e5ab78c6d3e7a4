'use strict';
/*
 * Counts BPE tokens off the main event loop (see TokenCounterService). Plain CommonJS, so the
 * same file runs under the tests and from dist/ (copied there as a Nest asset).
 *
 * Message in: { id, encoding: 'cl100k_base' | 'o200k_base', texts: string[] }
 * Message out: { id, result: number[] } or { id, error: { message } } (see ThreadRequests)
 */
const { setPriority } = require('node:os');
const { parentPort } = require('node:worker_threads');

// On Linux the nice value belongs to the thread: counting gives way to the event loop when CPU is short.
try {
  setPriority(10);
} catch {
  // Not permitted here (some containers): count at normal priority.
}

/** Special-token text in a prompt is counted as ordinary text instead of being refused. */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set() };
/**
 * BPE merging is quadratic in the length of one pre-token ("a" x 32,000 takes over a second),
 * so long texts are counted in pieces, cut before a whitespace where there is one (the
 * tokenizer splits there too, so the count stays exact) and at the piece size otherwise.
 */
const PIECE_CHARS = 2048;
const encodings = new Map();

function encoding(name) {
  let countTokens = encodings.get(name);
  if (!countTokens) {
    countTokens = require(`gpt-tokenizer/cjs/encoding/${name}`).countTokens;
    encodings.set(name, countTokens);
  }
  return countTokens;
}

function count(countTokens, text) {
  let total = 0;
  let start = 0;
  while (text.length - start > PIECE_CHARS) {
    let end = start + PIECE_CHARS;
    const space = text.slice(start + PIECE_CHARS / 2, end).search(/\s(?=\S*$)/);
    if (space >= 0) end = start + PIECE_CHARS / 2 + space;
    total += countTokens(text.slice(start, end), AS_PLAIN_TEXT);
    start = end;
  }
  return total + (start < text.length ? countTokens(text.slice(start), AS_PLAIN_TEXT) : 0);
}

parentPort.on('message', ({ id, encoding: name, texts }) => {
  try {
    const countTokens = encoding(name);
    parentPort.postMessage({ id, result: texts.map((text) => (text ? count(countTokens, text) : 0)) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error instanceof Error ? error.message : String(error) } });
  }
});
