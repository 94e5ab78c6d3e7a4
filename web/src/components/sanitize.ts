import DOMPurify from 'dompurify';
import { marked } from 'marked';

// Loaded on demand by SafeHtml.tsx: the sanitiser and the Markdown parser stay out of the first load, which shows
// administrator content only when it is configured.

// Links in administrator-written content open in a new tab without access to this window.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.getAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** Sanitised HTML: scripts, event handlers and javascript: URLs are removed, so nothing runs in our origin. */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form'], FORBID_ATTR: ['style'] });
}

/** Markdown (or HTML) rendered to sanitised HTML. */
export function renderMarkdown(content: string): string {
  return sanitizeHtml(marked.parse(content, { async: false }));
}
