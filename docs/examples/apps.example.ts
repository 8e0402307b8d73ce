import { AppView, createApp, Field, Tool } from '@mcpkit/core';
import { IsString, MinLength } from 'class-validator';

const todos = ['Water the plants'];

class AddTodo {
  @Field({ description: 'What to do' })
  @IsString()
  @MinLength(1)
  text: string;
}

// A view is one HTML document; a real one is bundled with the extension's App SDK (below).
const BOARD = '<!doctype html><html><body><h1>Todos</h1><ul id="todos"></ul></body></html>';

export class TodoBoard {
  @AppView({ uri: 'ui://todos/board', title: 'Todo board', prefersBorder: true, csp: { connectDomains: ['https://api.example.com'] } })
  board(): string {
    return BOARD;
  }

  // Hosts with MCP Apps show the board beside the answer; other clients show the text.
  @Tool({ description: 'Shows the todo list', ui: { view: 'ui://todos/board' } })
  show_todos(): string {
    return todos.map((todo) => `- ${todo}`).join('\n');
  }

  // Called by the board only: its host keeps it from the model, and a client without MCP Apps never sees it.
  @Tool({ description: 'The todos, for the board', input: null, ui: { view: 'ui://todos/board', visibility: ['app'] } })
  board_todos() {
    return { content: [{ type: 'text' as const, text: todos.join('\n') }], structuredContent: { todos } };
  }

  // Visible to both: the model adds todos, and so does the board's form.
  @Tool({ description: 'Adds a todo' })
  add_todo(input: AddTodo): string {
    todos.push(input.text);
    return `Added "${input.text}"`;
  }
}

export const todoApp = createApp({ name: 'todos', version: '1.0.0', providers: [TodoBoard] });
