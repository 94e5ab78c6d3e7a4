import { useEffect, useState } from 'react';
import { Box, type SxProps, type Theme } from '@mui/material';
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

/**
 * `source` rendered safe, once the sanitiser's chunk has loaded (empty until then: nothing unsanitised is ever shown).
 */
function useSanitized(source: string, kind: 'html' | 'markdown'): string {
  const [rendered, setRendered] = useState('');
  useEffect(() => {
    let current = true;
    void import('./sanitize').then((sanitize) => {
      if (current) setRendered(kind === 'markdown' ? sanitize.renderMarkdown(source) : sanitize.sanitizeHtml(source));
    });
    return () => {
      current = false;
    };
  }, [source, kind]);
  return rendered;
}

/** Administrator content written as Markdown or HTML, rendered sanitised. */
export function MarkdownContent({ content, sx }: { content: string; sx?: SxProps<Theme> }) {
  const html = useSanitized(content, 'markdown');
  return <Box sx={[contentStyles, ...(Array.isArray(sx) ? sx : [sx])]} dangerouslySetInnerHTML={{ __html: html }} />;
}

/** Inline custom HTML (footer, notice), rendered sanitised. */
export function HtmlContent({ html, sx }: { html: string; sx?: SxProps<Theme> }) {
  const clean = useSanitized(html, 'html');
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
