import { createApp, ResourceError, ResourceTemplate } from '@mcpkit/core';

const reports = new Map<string, string | 'pending'>([
  ['2026-q1', 'Revenue up 3%.'],
  ['2026-q2', 'pending'],
]);

export class ReportResources {
  @ResourceTemplate({ uriTemplate: 'reports://{id}', name: 'report', mimeType: 'text/plain' })
  report({ id }: { id: string }): string | undefined {
    const report = reports.get(id);
    // No such report: return undefined (or null); the client gets "Resource not found".
    if (report === undefined) return undefined;
    // It exists but cannot be read now: the client gets -32603 with exactly this message and data.
    if (report === 'pending') throw new ResourceError(`Report ${id} is still being generated; try again in a minute`, { data: { id, retryAfterMs: 60_000 } });
    return report;
  }

  @ResourceTemplate({ uriTemplate: 'archive://{id}', name: 'archived report', mimeType: 'text/plain' })
  archived({ id }: { id: string }): string {
    // Any other error: the client gets -32603 "Internal error"; the error and its stack go to the server log.
    throw new Error(`archive volume for ${id} is not mounted at /mnt/archive`);
  }
}

export const reportsApp = createApp({ name: 'reports', version: '1.0.0', providers: [ReportResources] });
