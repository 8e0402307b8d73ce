/** What each RFC 6570 operator puts first, between values, and whether it names them. */
const OPERATORS: Record<string, { first: string; sep: string; named: boolean; reserved: boolean; ifEmpty: string }> = {
  '': { first: '', sep: ',', named: false, reserved: false, ifEmpty: '' },
  '+': { first: '', sep: ',', named: false, reserved: true, ifEmpty: '' },
  '#': { first: '#', sep: ',', named: false, reserved: true, ifEmpty: '' },
  '.': { first: '.', sep: '.', named: false, reserved: false, ifEmpty: '' },
  '/': { first: '/', sep: '/', named: false, reserved: false, ifEmpty: '' },
  ';': { first: ';', sep: ';', named: true, reserved: false, ifEmpty: '' },
  '?': { first: '?', sep: '&', named: true, reserved: false, ifEmpty: '=' },
  '&': { first: '&', sep: '&', named: true, reserved: false, ifEmpty: '=' },
};

const encode = (value: string, reserved: boolean) => (reserved ? encodeURI(value) : encodeURIComponent(value));

/**
 * The URI a template's variables stand for (RFC 6570, the operators MCP templates use): how a
 * mirrored template's handler, given the variables core matched, names what to read remotely.
 */
export function expandTemplate(template: string, variables: Record<string, string | string[]>): string {
  return template.replace(/\{([+#./;?&]?)([^}]*)\}/g, (_whole, operator: string, list: string) => {
    const op = OPERATORS[operator]!;
    const parts: string[] = [];
    for (const spec of list.split(',')) {
      const name = spec.replace(/[*]$|:\d+$/, '');
      const value = variables[name];
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.map((item) => encode(item, op.reserved)).join(spec.endsWith('*') ? op.sep : ',') : encode(value, op.reserved);
      parts.push(op.named ? (text === '' ? `${name}${op.ifEmpty}` : `${name}=${text}`) : text);
    }
    return parts.length === 0 ? '' : op.first + parts.join(op.sep);
  });
}
