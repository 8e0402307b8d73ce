import {
  createApp,
  Public,
  RateLimit,
  RequireRoles,
  RequireScopes,
  Tool,
  ToolError,
  UseFilters,
  type CallTarget,
  type ExceptionFilter,
  type Guard,
  type Interceptor,
  type RequestContext,
} from '@mcpkit/core';
import { IsString } from 'class-validator';

class NoteInput {
  @IsString()
  text: string;
}

/** Only the caller's own tenant: read from a claim of its AuthInfo. */
class SameTenant implements Guard {
  canActivate(ctx: RequestContext, target: CallTarget): boolean | 'hide' {
    if (target.isPublic) return true;
    return ctx.auth?.claims?.tenant === 'acme' ? true : 'hide';
  }
}

/** Times every call, in the server's own log. */
class Timing implements Interceptor {
  async intercept(ctx: RequestContext, next: () => Promise<unknown>): Promise<unknown> {
    const started = performance.now();
    try {
      return await next();
    } finally {
      ctx.logger.debug({ ms: performance.now() - started }, 'timed');
    }
  }
}

class StoreDown extends Error {}

/** A store outage becomes a message the model can act on. */
class StoreDownAsText implements ExceptionFilter {
  catch(error: unknown): unknown {
    if (error instanceof StoreDown) throw new ToolError('The note store is down; try again in a minute.');
    throw error;
  }
}

@UseFilters(StoreDownAsText)
export class NotesTools {
  @Public()
  @Tool({ description: 'Is the service up?' })
  status(): string {
    return 'up';
  }

  @Tool({ description: 'Searches notes' })
  @RequireScopes('notes:read')
  search_notes(input: NoteInput): string {
    return `found "${input.text}"`;
  }

  @Tool({ description: 'Creates a note' })
  @RequireScopes('notes:write')
  @RateLimit({ limit: 30, windowMs: 60_000 })
  create_note(input: NoteInput, ctx: RequestContext): string {
    return `created "${input.text}" for ${ctx.auth!.subject}`;
  }

  @Tool({ description: 'Deletes every note' })
  @RequireRoles('admin')
  purge(): string {
    throw new StoreDown();
  }
}

export const guardedApp = createApp({
  name: 'notes',
  version: '1.0.0',
  providers: [NotesTools],
  requireAuth: true,
  guards: [SameTenant],
  interceptors: [Timing],
  impliedScopes: { 'notes:write': ['notes:read'] },
});
