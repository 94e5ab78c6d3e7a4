import { useMemo } from 'react';
import { Box, type SxProps, type Theme } from '@mui/material';
import DOMPurify from 'dompurify';
import { marked } from 'marked';

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

export function isUrl(content: string): boolean {
  return /^https?:\/\/\S+$/i.test(content.trim());
}

const contentStyles: SxProps<Theme> = {
  lineHeight: 1.75,
  wordBreak: 'break-word',
  '& img': { maxWidth: '100%' },
  '& a': { color: 'primary.main' },
  '& pre': { overflowX: 'auto', p: 1.5, borderRadius: 1, bgcolor: 'action.hover' },
  '& table': { borderCollapse: 'collapse' },
  '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5 },
};

/** Administrator content written as Markdown or HTML, rendered sanitised. */
export function MarkdownContent({ content, sx }: { content: string; sx?: SxProps<Theme> }) {
  const html = useMemo(() => sanitizeHtml(marked.parse(content, { async: false })), [content]);
  return <Box sx={[contentStyles, ...(Array.isArray(sx) ? sx : [sx])]} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Inline custom HTML (footer, notice), rendered sanitised. */
export function HtmlContent({ html, sx }: { html: string; sx?: SxProps<Theme> }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return <Box sx={[contentStyles, ...(Array.isArray(sx) ? sx : [sx])]} dangerouslySetInnerHTML={{ __html: clean }} />;
}

/**
 * An external page in a sandboxed frame. Without allow-same-origin it runs in an opaque origin,
 * so its scripts can never reach the console's cookies or storage.
 */
export function SandboxedPage({ url, title }: { url: string; title: string }) {
  return (
    <Box
      component="iframe"
      src={url.trim()}
      title={title}
      sandbox="allow-scripts allow-popups allow-forms"
      referrerPolicy="no-referrer"
      sx={{ border: 0, width: '100%', height: '100%', minHeight: 'calc(100vh - 64px)', display: 'block' }}
    />
  );
}
