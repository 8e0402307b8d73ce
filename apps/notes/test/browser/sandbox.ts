// The sandbox proxy of a web host (SEP-1865, "Sandbox proxy"): served from another origin than
// the host page, it loads the view's HTML, which the host sends it, into an inner iframe under the
// Content Security Policy the view declared, and relays every other message between the host and
// the view unchanged.
import type { McpUiResourceCsp, McpUiSandboxResourceReadyNotification } from '@modelcontextprotocol/ext-apps';

const SANDBOX_PREFIX = 'ui/notifications/sandbox-';

/** The CSP of the extension's "CSP Construction from Metadata", from the view's declared origins. */
function policy(csp: McpUiResourceCsp | undefined): string {
  const resources = (csp?.resourceDomains ?? []).join(' ');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src 'self' ${(csp?.connectDomains ?? []).join(' ')}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${(csp?.frameDomains ?? []).join(' ') || "'none'"}`,
    "object-src 'none'",
    `base-uri ${(csp?.baseUriDomains ?? []).join(' ') || "'self'"}`,
  ].join('; ');
}

const inner = document.createElement('iframe');
inner.title = 'view';
inner.style.cssText = 'border: 0; width: 100%; height: 100%;';

window.addEventListener('message', (event: MessageEvent) => {
  const message = event.data as { method?: string; params?: unknown } | undefined;
  if (event.source === window.parent) {
    if (message?.method === 'ui/notifications/sandbox-resource-ready') {
      const { html, sandbox, csp } = (message as McpUiSandboxResourceReadyNotification).params;
      inner.setAttribute('sandbox', sandbox ?? 'allow-scripts allow-forms');
      const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(csp).replace(/"/g, '&quot;')}">`;
      inner.srcdoc = /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${meta}`) : `${meta}${html}`;
      document.body.appendChild(inner);
    } else if (!message?.method?.startsWith(SANDBOX_PREFIX)) inner.contentWindow?.postMessage(message, '*');
  } else if (event.source === inner.contentWindow) {
    window.parent.postMessage(message, '*');
  }
});

window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, '*');
