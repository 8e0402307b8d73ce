import type { StoredTask } from './task-store';

/** Something that happened to an app that its connected clients may need to hear about (a task's new state included). */
export type AppEvent =
  { type: 'listChanged'; list: 'tools' | 'resources' | 'prompts' } | { type: 'resourceUpdated'; uri: string } | { type: 'taskStatus'; task: StoredTask };

/**
 * Carries app events to every connection. The in-memory default reaches the connections of
 * this process; a shared bus (Redis …) reaches those of other instances.
 */
export interface EventBus {
  publish(event: AppEvent): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: (event: AppEvent) => void): () => void;
}

/** The default bus: listeners in this process. */
export class MemoryEventBus implements EventBus {
  private readonly listeners = new Set<(event: AppEvent) => void>();

  /** Subscribed listeners (open connections). */
  get size(): number {
    return this.listeners.size;
  }

  publish(event: AppEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  subscribe(listener: (event: AppEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
