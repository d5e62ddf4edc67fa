"""Names vulture cannot see used, for `make lint`'s dead-code check (issue 45).

Each is called or read by a framework, by name or by convention, never by our code:
naming it here tells vulture it is used. Only such names belong here; a name that is
dead is removed instead. Functions registered by a decorator (FastAPI routes,
middleware and error handlers: ``@app.*``, ``@router.*``; the typer commands:
``@command``) are not listed: the Makefile tells vulture to skip them. An entry
allows the name everywhere, so keep the list short and grouped by who calls it.
"""

# ruff: noqa

# PEP 562: a module's __getattr__ and __dir__ (casino, casino.web load names lazily).
_.__getattr__
_.__dir__

# textual calls a widget's, screen's and app's class settings, compose(), its
# on_<message> handlers and its action_<name> methods (named in BINDINGS) by name.
_.AUTO_FOCUS
_.BINDINGS
_.CSS_PATH
_.DEFAULT_CSS
_.ENABLE_COMMAND_PALETTE
_.HORIZONTAL_BREAKPOINTS
_.VERTICAL_BREAKPOINTS
_.TITLE
_.can_focus
_.cursor_position
_.compose
_.get_default_screen
_.get_suggestion
_.check_action
_.parameters  # check_action's signature
_.on_button_pressed
_.on_click
_.on_data_table_row_highlighted
_.on_descendant_blur
_.on_descendant_focus
_.on_input_submitted
_.on_item_clicked
_.on_key
_.on_option_list_option_highlighted
_.on_option_list_option_selected
_.on_resize
_.on_select_changed
_.on_table_area_width_changed
_.on_worker_state_changed
_.action_cancel
_.action_cards
_.action_choose_default
_.action_close
_.action_confirm
_.action_cursor
_.action_goto
_.action_help
_.action_jump
_.action_learn
_.action_option
_.action_play
_.action_reveal
_.action_round
_.action_rules
_.action_save
_.action_start
_.action_step
_.action_type_move
_.action_undo

# OpenSpiel's pyspiel calls a Python game's and state's methods by name.
_._action_to_string
_._apply_action
_._legal_actions
_.make_py_observer
_.set_from
_.string_from

# Alembic reads each migration's module variables and calls downgrade().
_.branch_labels
_.depends_on
_.down_revision
_.downgrade

# SQLAlchemy: a table's model and an index are declared for the metadata (the schema).
_.LeaseRow
_.ClockRow
_.SEATS_BY_TOKEN

# Attributes set for a library to read: click's help text of an option's type, numpy's
# read-only flag, uvicorn's exit flag and a request's disconnected flag (web/slow),
# pexpect's send delay and log.
_.display_type_rich
_.writeable
_.should_exit
_.disconnected
_.delaybeforesend
_.logfile_read

# A dataclass field read through dataclasses.asdict (the hint's JSON: teach/hint.Advice).
_.budget_depth

# pydantic reads a model's configuration by name; web/settings' LimitGroups reads its
# groups by name (getattr over GROUPS), the reviews' group only so.
_.model_config
_.reviews
# pydantic-settings calls these of a settings class and of its sources (web/settings).
_.settings_customise_sources
_.get_field_value

# pydantic calls a model's field validators (web/messages: a play's move not blank, a
# claim's seat one of the game's), registered by @field_validator.
_._not_blank
_._a_seat_of_the_game
# A chat message's quick phrase one of the phrases, its text not blank.
_._a_phrase
_._said
# (and a model validator: web/bodies' clock checked as a whole.)
_._the_kind_s_values

# The four suits are named together; hearts has no rule of its own.
_.HEARTS

# pytest: module marks, autouse fixtures, and fixtures requested for their effect only.
_.pytestmark
_.fresh_readline
_.no_inherited_terminal_size
_.own_games_folder
_.no_twister
_.no_database_in_the_environment
_.english_by_default
_.english_afterwards

# The standard library calls these by name: html.parser.HTMLParser's handlers and
# ast.NodeVisitor's visit_<node> (the untranslated words' scanner, tests/i18n_literals.py).
_.handle_starttag
_.handle_endtag
_.handle_data
_.visit_JoinedStr

_.visit_AnnAssign

# Constants that exist to mark messages for extraction (`make i18n` reads their literals);
# each word is translated where it is shown, by pgettext over the name it marks.
_.SHOWN_NAMES
_.TYPER_TEXTS
_.FIELD_LABELS
_.CHECKED

# Read by a Jinja template (the web glossary page: each entry's words in the three
# languages).
_.languages

# Babel: a catalog's header fields, set by the translations' tool (tests/i18n_catalogs.py)
# for Babel to write.
_.creation_date
_.revision_date
_.header_comment
