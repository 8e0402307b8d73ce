import type {
  AudioContent,
  ContentAnnotations,
  EmbeddedResource,
  ImageContent,
  Resource,
  ResourceContents,
  ResourceLink,
  TextContent,
} from '../protocol/mcp-types';

/** Binary content: bytes, or a string already base64-encoded. */
export type Binary = Uint8Array | string;

function toBase64(data: Binary): string {
  return typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/**
 * Content helpers for tool results and prompt messages. Binary data may be given as bytes or as
 * a base64 string.
 *
 * @example
 * return [text('Here is the chart'), image(pngBytes, 'image/png')];
 */
export function text(value: string, annotations?: ContentAnnotations): TextContent {
  return annotations ? { type: 'text', text: value, annotations } : { type: 'text', text: value };
}

/** An image block; `data` is bytes or base64. */
export function image(data: Binary, mimeType: string, annotations?: ContentAnnotations): ImageContent {
  const block: ImageContent = { type: 'image', data: toBase64(data), mimeType };
  if (annotations) block.annotations = annotations;
  return block;
}

/** An audio block (2025-03-26+); `data` is bytes or base64. */
export function audio(data: Binary, mimeType: string, annotations?: ContentAnnotations): AudioContent {
  const block: AudioContent = { type: 'audio', data: toBase64(data), mimeType };
  if (annotations) block.annotations = annotations;
  return block;
}

/** A resource embedded in the result: text, or bytes sent as a base64 blob. */
export function embeddedResource(
  resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: Binary },
  annotations?: ContentAnnotations,
): EmbeddedResource {
  const contents: ResourceContents =
    'text' in resource ? { ...resource } : { uri: resource.uri, ...(resource.mimeType ? { mimeType: resource.mimeType } : {}), blob: toBase64(resource.blob) };
  const block: EmbeddedResource = { type: 'resource', resource: contents };
  if (annotations) block.annotations = annotations;
  return block;
}

/** A link to a resource the client may read later (2025-06-18+). */
export function resourceLink(resource: Resource): ResourceLink {
  return { type: 'resource_link', ...resource };
}

/** @internal */
export function bytesToBase64(data: Binary): string {
  return toBase64(data);
}
