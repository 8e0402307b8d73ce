import type { ContentBlock, ResourceContents } from '@mcpkit/core';

/** The size of base64 data, for people: `4 bytes`, `2.0 KiB`. */
function size(base64: string): string {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A resource's contents as `mcpkit call` prints them: the text itself, or what the blob is. */
export function formatResourceContents(contents: ResourceContents): string {
  if ('text' in contents && typeof contents.text === 'string') return contents.text;
  const blob = (contents as { blob?: unknown }).blob;
  return `[${[contents.mimeType ?? 'binary', typeof blob === 'string' ? size(blob) : undefined].filter(Boolean).join(', ')}]`;
}

/**
 * One content block of a tool result or prompt message as `mcpkit call` prints it: text as it
 * is; a resource link with its name, URI, type and description; an embedded resource with its URI
 * and then its text; images and audio as their type and size; any other kind as its JSON.
 */
export function formatContent(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}, ${block.mimeType}, ${size(block.data)}]`;
    case 'resource_link': {
      const name = block.title && block.title !== block.name ? `${block.title} (${block.name})` : block.name;
      return `[resource link] ${name} <${block.uri}>${block.mimeType ? ` ${block.mimeType}` : ''}${block.description ? `: ${block.description}` : ''}`;
    }
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource] <${resource.uri}>${resource.mimeType ? ` ${resource.mimeType}` : ''}\n${resource.text}`;
      return `[resource] <${resource.uri}> ${formatResourceContents(resource)}`;
    }
    default:
      // A kind this CLI does not know (a newer revision's): all of it, rather than a bare type.
      return JSON.stringify(block);
  }
}
