/**
 * Argument type of the legacy `lookup_order` handler. Its schema is hand-written in
 * `prompts/tools/lookup_order.schema.json`, so prompt-contract holds the two to each other.
 */
export interface LookupOrderArgs {
  /**
   * `A-1234`, or `B-1234` for orders placed before the 2024 migration.
   * @pattern ^[AB]-\d{4}$
   */
  order_id: string;
  /** Return the order's line items too. */
  include_items?: boolean;
}
