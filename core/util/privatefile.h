// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#pragma once

#include <QString>

#include <sys/types.h>

// Files that hold secrets (the configuration, `file:` secrets) must not be readable by people
// who should not have them. The rule, chosen so the packaged layout (/etc/redrive/redrived.toml
// root:redrive 0640, read by the service running as user and group redrive) stays valid:
//   - other users: no read or write bit, ever (0604, 0644, 0666 are refused);
//   - the group: a read or write bit is accepted only when the file's group is the process's own
//     effective group, i.e. the service's group, which in the package holds the service alone.
//     A group-readable file whose group is anything else (users, staff, adm) is refused.
// The audit key is stricter (0600, no group; core/audit/signingkey.cpp) because the receiver
// creates it itself.
namespace redrive {

// The pure rule: an empty string when `mode` is acceptable for a file of group `fileGid` read by a
// process whose effective group is `processGid`, else why not (without the file's name).
[[nodiscard]] QString privateModeProblem(mode_t mode, gid_t fileGid, gid_t processGid);

// Applies the rule to `path` (following symlinks, as opening it does). Empty when fine; otherwise
// a sentence naming `what` ("config file", "secret file"), the path and the mode in octal, and the
// fix. A file that cannot be examined is reported the same way.
[[nodiscard]] QString privateFileProblem(const QString &path, const QString &what);
// The same for a file already open as `fd` (what was opened is what is checked; `path` is for
// the message only).
[[nodiscard]] QString privateFileProblem(int fd, const QString &path, const QString &what);

} // namespace redrive
