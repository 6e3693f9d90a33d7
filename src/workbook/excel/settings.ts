import type { Ctx } from './context';

export async function getSetting<T>(ctx: Ctx, key: string): Promise<T | undefined> {
  const item = ctx.workbook.settings.getItemOrNullObject(key);
  item.load('isNullObject,value');
  await ctx.sync();
  if (item.isNullObject) return undefined;
  return (typeof item.value === 'string' ? JSON.parse(item.value) : item.value) as T;
}

export async function setSetting(ctx: Ctx, key: string, value: unknown): Promise<void> {
  // Stored as JSON text: settings keep strings faithfully in every host, structured values less so.
  if (value !== undefined) ctx.workbook.settings.add(key, JSON.stringify(value));
  else {
    const item = ctx.workbook.settings.getItemOrNullObject(key).load('isNullObject');
    await ctx.sync();
    if (!item.isNullObject) item.delete();
  }
  await ctx.sync();
}
