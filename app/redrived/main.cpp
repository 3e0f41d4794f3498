// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "daemon/commandline.h"

int main(int argc, char **argv)
{
    return redrive::daemon::runRedrived(argc, argv);
}
