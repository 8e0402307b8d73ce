import { createApp, type McpApp } from '@mcpkit/core';
import { ConformancePrompts } from './prompts';
import { ConformanceResources } from './resources';
import { ConformanceTools } from './tools';
import { ClientFacingTools } from './client-tools';
import { InputRequiredTools } from './input-required';

/** The conformance surface (side-effect free). `pageSize` pages every list. */
export function createEverythingApp(options: { pageSize?: number } = {}): McpApp {
  return createApp({
    name: 'mcpkit-everything',
    version: '0.1.0',
    providers: [ConformanceTools, ClientFacingTools, InputRequiredTools, ConformanceResources, ConformancePrompts],
    clientLogging: true,
    subscriptions: true,
    dynamic: true,
    pageSize: options.pageSize,
  });
}
