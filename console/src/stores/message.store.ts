import { create } from 'zustand';

/** The message centre's unread count (console-spec §3), shown as the header badge. */
export interface MessageState {
  totalCount: number;
  setTotalCount(totalCount: number): void;
}

export const useMessageStore = create<MessageState>()((set) => ({
  totalCount: 0,
  setTotalCount: (totalCount) => set({ totalCount }),
}));
