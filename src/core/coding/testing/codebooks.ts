/** Codebooks for tests: the smallest one coding takes, a field of two categories. */

/** One category field, `stance`: for or against. */
export const STANCE = {
  fields: [
    {
      key: 'stance',
      label: 'Stance',
      type: 'category',
      categories: [
        { value: 'for', label: 'For' },
        { value: 'against', label: 'Against' },
      ],
    },
  ],
} as const;
