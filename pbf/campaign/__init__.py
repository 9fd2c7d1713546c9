"""The campaign folder: ``campaign.toml`` and its options, ``state.yaml``, the archive under
``history/`` and how a turn is committed to it.

Each concern has its room, and each room imports only the ones listed before it:

* :mod:`.layout` — the folder's file names and the loaded folder (:class:`Campaign`);
* :mod:`.options` — the core's options, coerced; the board's character set; ``pbf set``'s
  changes, turn by turn;
* :mod:`.records` — each turn's archived files, read back and checked; the dice record; a public
  export's marker;
* :mod:`.lock` — one command at a time;
* :mod:`.deadlines` — ``deadline.yaml`` and each turn's record of it;
* :mod:`.commit` — the commit point, recovery from a run killed half-way, undo;
* :mod:`.folder` — reading a folder (:func:`load`) and making one (:func:`create`, which is
  handed turn 0's files by the turn package: :func:`pbf.turn.zero.new_campaign`);
* :mod:`.versions`, :mod:`.settings`, :mod:`.catalogue` — what made an archive, ``pbf set``,
  ``pbf list``: above the others, not loaded here.

This package's own namespace gathers the public names of the first seven rooms, for code
that works with a campaign as a whole (``from pbf import campaign as campaigns``). The rooms
import one another directly, never this namespace.
"""

from __future__ import annotations

from .layout import (CAMPAIGN_FILE, DEADLINE_FILE, HISTORY, LOCK_FILE, OPTIONS_PENDING, OPTIONS_RECORD, STATE_FILE,
                     TURN_META, UNDONE, Campaign, nfkc, safe_filename, turn_dir_name)
from .options import (BOARD_DEFAULT, CORE_OPTIONS, at_turn, board_charset, board_encoding, build_context, check_gm,
                      coerce_options, option_changes, options_by_turn, parse_set_option, record_option_changes,
                      tidy_option_note, write_option_note)
from .records import (ARCHIVE_FILES, DICE_RECORD, DICE_WITHHELD, EXPORT_FILE, TurnRecord, archived, archived_events,
                      archived_meta, archived_yaml, check_archive, dice_record, hands_hidden, hands_redacted,
                      post_files, read_marker, state_before)
from .lock import exclusive
from .deadlines import current_deadline, deadline_text, set_deadline
from .commit import UndoPlan, commit_turn, undo, undo_plan
from .folder import (MAX_NAME, campaign_toml, check_player_name, commitment, create, initial_state, load, load_config,
                     new_seed, parse_player_spec, players_from_config)
