// A small web host of MCP Apps for the notes board's browser test: an MCP client of the notes
// server (Streamable HTTP from this page) that declares the extension, and the extension's own
// host bridge (AppBridge) between that client and the view, which runs in a sandboxed iframe
// behind a sandbox proxy of another origin. It calls show_board as a model would, hands the view
// the tool's input and result, and relays the view's calls, refusing what the extension says a
// host must refuse.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  AppBridge,
  PostMessageTransport,
  getToolUiResourceUri,
  isToolVisibilityModelOnly,
  type McpUiResourceMeta,
} from '@modelcontextprotocol/ext-apps/app-bridge';

interface HostState {
  /** The tools the model would be offered (no tool only a view may call). */
  modelTools: string[];
  /** Every tools/call the view made, by name, and whether the host let it through. */
  viewCalls: Array<{ name: string; allowed: boolean }>;
  initialized: boolean;
  error?: string;
}

declare global {
  interface Window {
    host: HostState;
  }
}

const state: HostState = { modelTools: [], viewCalls: [], initialized: false };
window.host = state;

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const server = params.get('server')!;
  const sandbox = params.get('sandbox')!;

  const client = new Client(
    { name: 'mcpkit-test-host', version: '0.0.0' },
    { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(server)));

  const { tools } = await client.listTools();
  // The extension: the model's list leaves out what only a view may call.
  state.modelTools = tools
    .filter((tool) => (tool._meta?.ui as { visibility?: string[] } | undefined)?.visibility?.includes('model') ?? true)
    .map((tool) => tool.name);
  const show = tools.find((tool) => tool.name === 'show_board');
  const viewUri = show && getToolUiResourceUri(show);
  if (!viewUri) throw new Error('show_board links no view');
  const { contents } = await client.readResource({ uri: viewUri });
  const [view] = contents as Array<{ text: string; _meta?: { ui?: McpUiResourceMeta } }>;

  const bridge = new AppBridge(client, { name: 'mcpkit-test-host', version: '0.0.0' }, { serverTools: {}, serverResources: {}, logging: {} });
  const frame = document.createElement('iframe');
  frame.id = 'view';
  // The proxy needs its own origin's scripts and storage; the view inside it gets neither.
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  frame.src = sandbox;
  const ready = new Promise<void>((resolve) => bridge.addEventListener('sandboxready', () => resolve()));
  const initialized = new Promise<void>((resolve) => bridge.addEventListener('initialized', () => resolve()));
  bridge.addEventListener('sizechange', ({ height }) => {
    if (height !== undefined) frame.style.height = `${height}px`;
  });
  document.getElementById('frame')!.appendChild(frame);
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));

  // After connect, which installs the forwarding to the server: the extension's rule first.
  const forward = bridge.oncalltool!;
  bridge.oncalltool = async (call, extra) => {
    const tool = tools.find((candidate) => candidate.name === call.name);
    const allowed = tool !== undefined && !isToolVisibilityModelOnly(tool);
    state.viewCalls.push({ name: call.name, allowed });
    if (!allowed) throw new Error(`the view may not call ${call.name}`);
    return forward(call, extra);
  };

  await ready;
  await bridge.sendSandboxResourceReady({ html: view.text, csp: view._meta?.ui?.csp, permissions: view._meta?.ui?.permissions });
  await initialized;
  state.initialized = true;
  // As the model would: call the tool, then hand the view its input and result.
  const args = {};
  const result = await client.callTool({ name: 'show_board', arguments: args });
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result as Parameters<AppBridge['sendToolResult']>[0]);
}

main().catch((error: unknown) => {
  state.error = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
});
