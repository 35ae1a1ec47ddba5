/** The fields a menu node needs to be placed in a tree. */
export interface TreeNode<T> {
  id: string;
  parentId: string | null;
  code: string;
  sort: number;
  children: T[];
}

/**
 * Links nodes to their parents and orders every level by `sort`, then code (by code unit, the same on every locale).
 * Nodes whose parent is not among them become roots; with `rootId`, only that node's subtree is returned.
 */
export function assembleTree<T extends TreeNode<T>>(nodes: Map<string, T>, rootId?: string): T[] {
  const roots: T[] = [];
  for (const n of nodes.values()) {
    const parent = n.parentId ? nodes.get(n.parentId) : undefined;
    if (rootId ? n.id === rootId : !parent) roots.push(n);
    parent?.children.push(n);
  }
  const order = (list: T[]): T[] => {
    list.sort((a, b) => a.sort - b.sort || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    for (const n of list) order(n.children);
    return list;
  };
  return order(roots);
}
