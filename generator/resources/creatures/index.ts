import type { AnyResource } from '../define.ts';

export const resources: AnyResource[] = [];
