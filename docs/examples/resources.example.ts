import { createApp, Resource, ResourceTemplate } from '@mcpkit/core';

const files = new Map([
  ['readme.md', '# Hello'],
  ['src/index.ts', 'export {};'],
]);

export class FileResources {
  @Resource({ uri: 'files://index', name: 'index', description: 'Every file name', mimeType: 'text/plain' })
  index(): string {
    return [...files.keys()].join('\n');
  }

  // `{+path}` may contain slashes; the handler's argument is typed from the template: { path: string }.
  @ResourceTemplate({ uriTemplate: 'files:///{+path}', name: 'file', mimeType: 'text/plain' })
  file({ path }: { path: string }): string | undefined {
    // undefined means "no such resource": the client gets -32002 with the URI.
    return files.get(path);
  }

  // Bytes are sent as a base64 blob.
  @ResourceTemplate({ uriTemplate: 'logo://{size}{?theme}', name: 'logo', mimeType: 'image/png' })
  logo({ size, theme }: { size: string; theme?: string }): Uint8Array {
    return new Uint8Array([size.length, theme === 'dark' ? 1 : 0]);
  }
}

export const filesApp = createApp({ name: 'files', version: '1.0.0', providers: [FileResources] });
