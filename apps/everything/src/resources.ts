import { Resource, ResourceTemplate } from '@mcpkit/core';
import { PNG_BASE64 } from './fixtures';

/** The conformance resources. */
export class ConformanceResources {
  @Resource({
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
  })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @Resource({
    uri: 'test://static-binary',
    name: 'static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
  })
  staticBinary() {
    return { blob: PNG_BASE64 };
  }

  @Resource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    title: 'Watched Resource',
    description: 'A resource that auto-updates every 3 seconds',
    mimeType: 'text/plain',
  })
  watched(): string {
    return 'Watched resource content';
  }

  @ResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
  })
  template({ id }: { id: string }): string {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }
}
