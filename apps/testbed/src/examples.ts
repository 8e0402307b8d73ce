/**
 * testbed.md's valid `validate` input, shared by the testbed's tests and the benchmark so both
 * check the same answer: `valid:Ada:36:2:12345:-`.
 */
export const VALID = {
  name: 'Ada',
  email: 'ada@example.com',
  age: 36,
  score: 99.5,
  role: 'admin',
  active: true,
  tags: ['math', 'engines'],
  address: { street: '1 Main St', city: 'London', zip: '12345' },
  priority: 3,
};
