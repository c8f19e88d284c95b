// The little XML S3 speaks: find elements by tag in a response, escape text for a request.
//
// S3's responses are flat and machine-written (ListBucketResult, Error, InitiateMultipartUpload-
// Result, DeleteResult), so finding <Tag>text</Tag> by name is enough; no XML library is needed.
// A tag that does not close yields nothing, never a read past the end.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace floe {

// The raw inner text of every <tag>...</tag> (also <tag attr="..">), in order.
std::vector<std::string_view> XmlElements(std::string_view xml, std::string_view tag);
// The first element's text, entities decoded.
std::optional<std::string> XmlText(std::string_view xml, std::string_view tag);
// &lt; &gt; &amp; &quot; &apos; and numeric references decoded.
std::string XmlDecode(std::string_view text);
std::string XmlEscape(std::string_view text);

}  // namespace floe
