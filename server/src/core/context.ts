/** Who a core call acts for. Services take it first; repositories take its accountId first. */
export interface Ctx {
  accountId: number;
  userId: number;
}
