import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { McpApp } from '@mcpkit/core';
import { TestClient } from '@mcpkit/testing';

const SHOWN_PER_EXAMPLE = 6;
const LINE_CHARS = 160;

/** Which example file created the app of each name (names two examples share are left out: no guess). */
function examplesByAppName(examples: string): Map<string, string> {
  const files = new Map<string, string[]>();
  for (const file of readdirSync(examples).filter((name) => name.endsWith('.ts'))) {
    for (const [, name] of readFileSync(join(examples, file), 'utf8').matchAll(/createApp\(\{\s*name: '([^']+)'/g)) {
      files.set(name, [...new Set([...(files.get(name) ?? []), file])]);
    }
  }
  return new Map([...files].filter(([, found]) => found.length === 1).map(([name, [file]]) => [name, file]));
}

const clip = (text: string): string => (text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS - 1)}…` : text);

/** One line of what was asked: the method and what names its target. */
function asked(method: string, params: Record<string, unknown> | undefined): string {
  const ref = params?.ref as Record<string, unknown> | undefined;
  const target = params?.name ?? params?.uri ?? ref?.name ?? ref?.uri ?? '';
  const values = params?.arguments ?? params?.argument;
  const args = values && Object.keys(values).length > 0 ? ` ${JSON.stringify(values)}` : '';
  return clip(`${method} ${String(target)}${args}`.trim());
}

/** One line of the answer: the text a person reads, else the names listed, else the JSON. */
function answered(result: Record<string, unknown>): string {
  const blocks = (result.content ?? result.contents ?? result.messages) as Array<Record<string, unknown>> | undefined;
  const listed = (result.tools ?? result.resources ?? result.prompts ?? result.resourceTemplates) as Array<Record<string, unknown>> | undefined;
  let text: string;
  if (blocks) text = blocks.map((block) => (typeof block.text === 'string' ? block.text : JSON.stringify(block.content ?? block))).join(' | ');
  else if (listed) text = listed.map((item) => String(item.name ?? item.uri ?? item.uriTemplate)).join(', ');
  else text = JSON.stringify(result);
  return clip(`${result.isError === true ? 'tool error: ' : ''}${text}`.replace(/\s*\n\s*/g, ' ⏎ '));
}

/**
 * Records what the examples answered the spec's `TestClient` (the first calls of each example
 * file's app, as "→ request" and "← answer" lines) and writes them for the docs site to show under
 * the example: the output CI saw, not output written by hand. Call in a spec file's top level.
 */
export function recordExampleOutput(spec: string, examples: string, out: string): void {
  const byName = examplesByAppName(examples);
  const lines = new Map<string, string[]>();
  const exampleOf = new WeakMap<TestClient, string>();
  const connect = TestClient.connect.bind(TestClient);
  const request = TestClient.prototype.request;
  // A request and its answer, once: the specs repeat calls on both eras.
  const add = (file: string, request: string, answer: string) => {
    const kept = lines.get(file) ?? [];
    const pair = [`→ ${request}`, `← ${answer}`];
    const seen = kept.some((line, index) => index % 2 === 0 && line === pair[0] && kept[index + 1] === pair[1]);
    if (!seen && kept.length < SHOWN_PER_EXAMPLE * 2) lines.set(file, [...kept, ...pair]);
  };

  beforeAll(() => {
    jest.spyOn(TestClient, 'connect').mockImplementation(async (app: McpApp, options) => {
      const client = await connect(app, options);
      const file = byName.get(app.info.name);
      if (file) exampleOf.set(client, file);
      return client;
    });
    jest.spyOn(TestClient.prototype, 'request').mockImplementation(async function (this: TestClient, method: string, params?: Record<string, unknown>) {
      const file = exampleOf.get(this);
      try {
        const result = (await request.call(this, method, params)) as Record<string, unknown>;
        if (file && method !== 'server/discover') {
          add(file, asked(method, params), answered(result));
        }
        return result;
      } catch (error) {
        const { code, message } = error as { code?: number; message?: string };
        if (file) {
          add(file, asked(method, params), `error ${code ?? ''}: ${message ?? String(error)}`);
        }
        throw error;
      }
    } as typeof request);
  });

  afterAll(() => {
    jest.restoreAllMocks();
    mkdirSync(dirname(out), { recursive: true });
    const recorded = Object.fromEntries([...lines].sort(([a], [b]) => a.localeCompare(b)).map(([file, kept]) => [file, { spec, lines: kept }]));
    // Atomically: the suite's run on another Node (.ci/run) writes the same file while the docs
    // build may be reading it.
    writeFileSync(`${out}.${process.pid}.tmp`, `${JSON.stringify(recorded, null, 2)}\n`);
    renameSync(`${out}.${process.pid}.tmp`, out);
  });
}
