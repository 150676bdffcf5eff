/**
 * Which codebook, coder and sample the workbench works on, and whether coding follows the posts shown in other
 * views (UI state, not server data: kept in this window's local storage so a reload keeps the place). Named
 * actions, one store.
 */
import { create } from 'zustand';

const STORAGE = 'skein.coding.selection';

interface Selection {
  codebook: number | null;
  coder: number | null;
  sample: number | null;
  /** the coding panel follows the post or account in focus in every view */
  everywhere: boolean;
}

interface SelectionActions {
  chooseCodebook: (id: number | null) => void;
  chooseCoder: (id: number | null) => void;
  chooseSample: (id: number | null) => void;
  codeEverywhere: (on: boolean) => void;
}

function load(): Selection {
  const none: Selection = { codebook: null, coder: null, sample: null, everywhere: false };
  try {
    const raw = localStorage.getItem(STORAGE);
    if (!raw) return none;
    const v = JSON.parse(raw) as Partial<Selection>;
    const id = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) && x > 0 ? x : null);
    return { codebook: id(v.codebook), coder: id(v.coder), sample: id(v.sample), everywhere: v.everywhere === true };
  } catch {
    return none;
  }
}

export const useCodingSelection = create<Selection & SelectionActions>((set, get) => {
  const save = () => {
    const { codebook, coder, sample, everywhere } = get();
    try {
      localStorage.setItem(STORAGE, JSON.stringify({ codebook, coder, sample, everywhere }));
    } catch {
      // storage refused (private window): the choice lasts this session
    }
  };
  return {
    ...load(),
    chooseCodebook: (codebook) => {
      set({ codebook, sample: null });
      save();
    },
    chooseCoder: (coder) => {
      set({ coder });
      save();
    },
    chooseSample: (sample) => {
      set({ sample });
      save();
    },
    codeEverywhere: (everywhere) => {
      set({ everywhere });
      save();
    },
  };
});
