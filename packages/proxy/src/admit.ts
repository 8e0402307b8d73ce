import { clip, createApp, type AppOptions, type McpApp, type Provider } from '@mcpkit/core';
import type { RemoteItem } from './mirror';

/** One mirrored item's definition, and how to say which it is. */
export interface Candidate {
  item: RemoteItem;
  provider: Provider;
}

const describe = (item: RemoteItem, error: unknown) =>
  new Error(clip(`the upstream server's ${item.kind} ${JSON.stringify(item.key)} is not offered: ${firstLine(error)}`));
const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]!;

/** The definitions of the items, less those whose entry core refuses to define (told to `report`). */
export function toCandidates(items: readonly RemoteItem[], define: (item: RemoteItem) => Provider, report: (error: Error) => void): Candidate[] {
  const made: Candidate[] = [];
  for (const item of items) {
    try {
      made.push({ item, provider: define(item) });
    } catch (error) {
      report(describe(item, error));
    }
  }
  return made;
}

/**
 * The mirror app, made of every candidate this app can hold. A remote's name or URI that core
 * refuses (a tool name with spaces or `/`, a URI without a scheme …) would refuse the whole app:
 * when the whole set fails, each candidate is tried alone and the ones refused are left out, told
 * to `report`. Returns the app and the items it holds.
 */
export function createMirror(
  options: Omit<AppOptions, 'providers'>,
  candidates: readonly Candidate[],
  report: (error: Error) => void,
): { app: McpApp; kept: RemoteItem[] } {
  try {
    return {
      app: createApp({ ...options, providers: candidates.map((candidate) => candidate.provider) }),
      kept: candidates.map((candidate) => candidate.item),
    };
  } catch {
    const kept = candidates.filter((candidate) => accepted(candidate, report));
    return { app: createApp({ ...options, providers: kept.map((candidate) => candidate.provider) }), kept: kept.map((candidate) => candidate.item) };
  }
}

/** Adds the candidates to a live mirror, each alone when the whole set is refused; returns the items added. */
export function addToMirror(app: McpApp, candidates: readonly Candidate[], report: (error: Error) => void): RemoteItem[] {
  if (candidates.length === 0) return [];
  try {
    app.addProviders(candidates.map((candidate) => candidate.provider));
    return candidates.map((candidate) => candidate.item);
  } catch {
    const added: RemoteItem[] = [];
    for (const candidate of candidates) {
      try {
        app.addProviders([candidate.provider]);
        added.push(candidate.item);
      } catch (error) {
        report(describe(candidate.item, error));
      }
    }
    return added;
  }
}

/** Whether an app would hold this one candidate alone. */
function accepted(candidate: Candidate, report: (error: Error) => void): boolean {
  try {
    createApp({ name: 'probe', version: '0.0.0', dynamic: true, providers: [candidate.provider] });
    return true;
  } catch (error) {
    report(describe(candidate.item, error));
    return false;
  }
}
