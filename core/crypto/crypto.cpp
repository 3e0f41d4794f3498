// SPDX-License-Identifier: Apache-2.0
// SPDX-FileCopyrightText: Redrive authors
#include "crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <memory>
#include <stdexcept>

namespace redrive::crypto {

namespace {
struct MdCtxDeleter {
    void operator()(EVP_MD_CTX *ctx) const { EVP_MD_CTX_free(ctx); }
};

// SHA256() is EVP_Q_digest in OpenSSL 3: it fetches the digest implementation on every call,
// which cost 0.65 µs of the 1.6 µs that hashing a 1 KiB body took. The digest is fetched once
// and each thread reuses one context.
EVP_MD_CTX *threadSha256Context(const EVP_MD **md)
{
    static const EVP_MD *const sha = [] {
        const EVP_MD *fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
        if (!fetched)
            throw std::runtime_error("EVP_MD_fetch(SHA256) failed");
        return fetched; // kept for the life of the process
    }();
    thread_local std::unique_ptr<EVP_MD_CTX, MdCtxDeleter> ctx(EVP_MD_CTX_new());
    if (!ctx)
        throw std::runtime_error("EVP_MD_CTX_new failed");
    *md = sha;
    return ctx.get();
}
} // namespace

QByteArray sha256(QByteArrayView data)
{
    const EVP_MD *md = nullptr;
    EVP_MD_CTX *ctx = threadSha256Context(&md);
    QByteArray out(kSha256Size, Qt::Uninitialized);
    unsigned int len = 0;
    if (EVP_DigestInit_ex(ctx, md, nullptr) != 1
        || (!data.isEmpty() && EVP_DigestUpdate(ctx, data.data(), static_cast<size_t>(data.size())) != 1)
        || EVP_DigestFinal_ex(ctx, reinterpret_cast<unsigned char *>(out.data()), &len) != 1
        || len != static_cast<unsigned int>(kSha256Size))
        throw std::runtime_error("SHA-256 failed");
    return out;
}

QByteArray sha256Hex(QByteArrayView data)
{
    return sha256(data).toHex();
}

namespace {
struct MacCtxDeleter {
    void operator()(EVP_MAC_CTX *ctx) const { EVP_MAC_CTX_free(ctx); }
};

// One HMAC-SHA256 context per thread, with its digest chosen once. Re-initialising it with a new
// key and no parameters skips OpenSSL 3's per-call digest fetch, which otherwise costs about as
// much as hashing a 1 KiB body.
EVP_MAC_CTX *threadHmacContext()
{
    thread_local std::unique_ptr<EVP_MAC_CTX, MacCtxDeleter> ctx = [] {
        EVP_MAC *mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
        if (!mac)
            throw std::runtime_error("EVP_MAC_fetch(HMAC) failed");
        std::unique_ptr<EVP_MAC_CTX, MacCtxDeleter> c(EVP_MAC_CTX_new(mac));
        EVP_MAC_free(mac); // the context keeps its own reference
        char digest[] = "SHA256";
        const OSSL_PARAM params[] = {
            OSSL_PARAM_construct_utf8_string("digest", digest, 0),
            OSSL_PARAM_construct_end(),
        };
        if (!c || EVP_MAC_CTX_set_params(c.get(), params) != 1)
            throw std::runtime_error("HMAC-SHA256 context setup failed");
        return c;
    }();
    return ctx.get();
}
} // namespace

QByteArray hmacSha256(QByteArrayView key, std::initializer_list<QByteArrayView> parts)
{
    EVP_MAC_CTX *ctx = threadHmacContext();
    // An empty key is legal HMAC; OpenSSL wants a non-null pointer for it.
    static const unsigned char emptyKey = 0;
    const auto *keyData = key.isEmpty() ? &emptyKey : reinterpret_cast<const unsigned char *>(key.data());
    if (EVP_MAC_init(ctx, keyData, static_cast<size_t>(key.size()), nullptr) != 1)
        throw std::runtime_error("EVP_MAC_init failed");
    for (QByteArrayView part : parts) {
        if (part.isEmpty())
            continue;
        EVP_MAC_update(
            ctx, reinterpret_cast<const unsigned char *>(part.data()), static_cast<size_t>(part.size()));
    }
    QByteArray out(kSha256Size, Qt::Uninitialized);
    size_t len = 0;
    EVP_MAC_final(ctx, reinterpret_cast<unsigned char *>(out.data()), &len, static_cast<size_t>(out.size()));
    out.resize(static_cast<qsizetype>(len));
    return out;
}

bool constantTimeEquals(QByteArrayView a, QByteArrayView b)
{
    if (a.size() != b.size())
        return false;
    if (a.isEmpty())
        return true;
    return CRYPTO_memcmp(a.data(), b.data(), static_cast<size_t>(a.size())) == 0;
}

namespace {
std::optional<QByteArray> decode64(QByteArrayView text, QByteArray::Base64Options options)
{
    if (text.isEmpty())
        return QByteArray();
    auto result = QByteArray::fromBase64Encoding(
        text.toByteArray(), options | QByteArray::AbortOnBase64DecodingErrors);
    if (result.decodingStatus != QByteArray::Base64DecodingStatus::Ok)
        return std::nullopt;
    return std::move(result.decoded);
}
} // namespace

std::optional<QByteArray> decodeBase64(QByteArrayView text)
{
    return decode64(text, QByteArray::Base64Encoding);
}

std::optional<QByteArray> decodeBase64Url(QByteArrayView text)
{
    return decode64(text, QByteArray::Base64UrlEncoding);
}

std::optional<QByteArray> decodeHex(QByteArrayView text)
{
    if (text.size() % 2 != 0)
        return std::nullopt;
    QByteArray out;
    out.reserve(text.size() / 2);
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    for (qsizetype i = 0; i < text.size(); i += 2) {
        const int hi = nibble(text[i]);
        const int lo = nibble(text[i + 1]);
        if (hi < 0 || lo < 0)
            return std::nullopt;
        out.append(static_cast<char>((hi << 4) | lo));
    }
    return out;
}

QByteArray randomBytes(int count)
{
    QByteArray out(count, Qt::Uninitialized);
    if (count > 0 && RAND_bytes(reinterpret_cast<unsigned char *>(out.data()), count) != 1)
        throw std::runtime_error("RAND_bytes failed");
    return out;
}

} // namespace redrive::crypto
