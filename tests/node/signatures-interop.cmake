# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: Redrive authors
#
# Signature interoperability with the providers' own npm packages (included from
# tests/core/CMakeLists.txt, so the QtTest targets sit beside the other signature tests).
#
#   npm_ci                      installs tests/node's locked packages into the build tree
#   node_generate_vectors       the packages sign >= 1,000 random requests
#   tst_signatures_interop      Redrive accepts each of them and refuses each one-byte change
#   tst_signatures_export       Redrive signs Standard Webhooks requests ...
#   node_verify_standardwebhooks ... and the reference `standardwebhooks` package accepts them
#
# The packages are installed in the BUILD tree, not in tests/node: build directories that run
# their suites at the same time must not delete each other's node_modules.

find_program(REDRIVE_NODE NAMES node nodejs)
find_program(REDRIVE_NPM NAMES npm)
if(NOT REDRIVE_NODE OR NOT REDRIVE_NPM)
    message(WARNING "node or npm not found: the signature interop tests are not registered")
else()
    set(_redrive_node_dir ${PROJECT_BINARY_DIR}/tests/node)
    foreach(_file package.json package-lock.json generate-vectors.mjs verify-standardwebhooks.mjs)
        configure_file(${PROJECT_SOURCE_DIR}/tests/node/${_file} ${_redrive_node_dir}/${_file} COPYONLY)
    endforeach()

    add_test(NAME npm_ci COMMAND ${REDRIVE_NPM} ci --no-audit --no-fund --prefer-offline
        WORKING_DIRECTORY ${_redrive_node_dir})
    set_tests_properties(npm_ci PROPERTIES FIXTURES_SETUP node TIMEOUT 300 LABELS node)

    add_test(NAME node_generate_vectors
        COMMAND ${REDRIVE_NODE} ${_redrive_node_dir}/generate-vectors.mjs ${_redrive_node_dir}/signed-requests.json 1200)
    set_tests_properties(node_generate_vectors PROPERTIES
        FIXTURES_REQUIRED node FIXTURES_SETUP node_vectors TIMEOUT 120 LABELS node)

    redrive_add_test(tst_signatures_interop SOURCES tst_signatures_interop.cpp tst_signatures_support.h
        LABELS node ENV REDRIVE_SIGNED_REQUESTS=${_redrive_node_dir}/signed-requests.json)
    set_tests_properties(tst_signatures_interop PROPERTIES FIXTURES_REQUIRED node_vectors)

    redrive_add_test(tst_signatures_export SOURCES tst_signatures_export.cpp tst_signatures_support.h
        LABELS node ENV REDRIVE_SW_EXPORT=${_redrive_node_dir}/redrive-signed.json)
    set_tests_properties(tst_signatures_export PROPERTIES FIXTURES_SETUP sw_export)

    add_test(NAME node_verify_standardwebhooks
        COMMAND ${REDRIVE_NODE} ${_redrive_node_dir}/verify-standardwebhooks.mjs ${_redrive_node_dir}/redrive-signed.json)
    set_tests_properties(node_verify_standardwebhooks PROPERTIES
        FIXTURES_REQUIRED "node;sw_export" TIMEOUT 120 LABELS node)
endif()
