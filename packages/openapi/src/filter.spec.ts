import { operationFilter, type OperationInfo } from './filter';

const OPERATIONS: OperationInfo[] = [
  { operationId: 'getPetById', method: 'GET', path: '/pet/{petId}', tags: ['pet'] },
  { operationId: 'deletePet', method: 'DELETE', path: '/pet/{petId}', tags: ['pet'] },
  { operationId: 'placeOrder', method: 'POST', path: '/store/order', tags: ['store'] },
  { method: 'GET', path: '/store/order/{orderId}/items', tags: [] },
];

function picked(...args: Parameters<typeof operationFilter>): string[] {
  const test = operationFilter(...args);
  return OPERATIONS.filter(test).map((operation) => operation.operationId ?? `${operation.method} ${operation.path}`);
}

describe('operationFilter', () => {
  it('offers everything without include or exclude', () => {
    expect(picked()).toHaveLength(4);
  });

  it('matches an operationId, a tag, a method and path pattern, a RegExp and a function', () => {
    expect(picked(['getPetById'])).toEqual(['getPetById']);
    expect(picked([{ tag: 'pet' }])).toEqual(['getPetById', 'deletePet']);
    expect(picked(['GET /pet/*'])).toEqual(['getPetById']);
    expect(picked(['* /store/**'])).toEqual(['placeOrder', 'GET /store/order/{orderId}/items']);
    expect(picked(['* /store/*'])).toEqual(['placeOrder']);
    expect(picked([/^get/])).toEqual(['getPetById']);
    expect(picked([/^GET /])).toEqual(['getPetById', 'GET /store/order/{orderId}/items']);
    expect(picked([(operation) => operation.tags.length === 0])).toEqual(['GET /store/order/{orderId}/items']);
  });

  it('drops what exclude matches, after include', () => {
    expect(picked([{ tag: 'pet' }], ['DELETE /pet/{petId}'])).toEqual(['getPetById']);
    expect(picked(undefined, [{ tag: 'store' }, 'deletePet'])).toEqual(['getPetById', 'GET /store/order/{orderId}/items']);
  });

  it('refuses an entry of another kind', () => {
    expect(() => operationFilter([42 as never])).toThrow('an include or exclude entry must be a string, a RegExp, { tag } or a function');
  });
});
